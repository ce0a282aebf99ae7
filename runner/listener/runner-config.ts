import type { KeyObject } from 'node:crypto';
import {
  HttpClient,
  LegacyQueueClient,
  RawClient,
  RunServiceClient,
  RunnerTokenSource,
  VssConnection,
  type RunnerIdentity,
} from '../client/index.js';
import {
  ROOT_FILES,
  RunnerConfigError,
  readRunnerCredentials,
  readRunnerKey,
  readRunnerSettings,
  type RunnerCredentials,
  type RunnerRoot,
  type RunnerSettings,
} from '../config/index.js';

/** A configured runner: its three root files, read and checked. */
export interface RunnerConfig {
  readonly root: RunnerRoot;
  readonly settings: RunnerSettings;
  readonly credentials: RunnerCredentials;
  readonly key: KeyObject;
}

/** The message the spec gives for a root without configuration ("loading runner configuration ... run ... configure first"). */
export class NotConfiguredError extends Error {
  override readonly name = 'NotConfiguredError';
}

export async function loadRunnerConfig(root: RunnerRoot): Promise<RunnerConfig> {
  const fail = (problem: string): never => {
    throw new NotConfiguredError(
      `loading runner configuration from ${root.dir} failed: ${problem}; run \`svc-runner configure --url <url> --token <token> --runner-root ${root.dir}\` first (or start with --jitconfig)`,
    );
  };
  try {
    const settings = await readRunnerSettings(root);
    if (settings === undefined) return fail(`there is no ${ROOT_FILES.settings} file`);
    const credentials = await readRunnerCredentials(root);
    if (credentials === undefined) return fail(`there is no ${ROOT_FILES.credentials} file`);
    const key = await readRunnerKey(root);
    if (key === undefined) return fail(`there is no ${ROOT_FILES.rsaParams} file`);
    return { root, settings, credentials, key };
  } catch (error) {
    if (error instanceof RunnerConfigError) return fail(error.message);
    throw error;
  }
}

/** Everything the listener talks through, sharing one runner token. */
export interface RunnerConnections {
  readonly http: HttpClient;
  readonly tokens: RunnerTokenSource;
  /** The tenant (`serverUrl`) with the runner's OAuth credential. */
  readonly vss: VssConnection;
  readonly legacy: LegacyQueueClient;
  readonly raw: RawClient;
  readonly runService: RunServiceClient;
}

export function runnerConnections(config: RunnerConfig, identity: RunnerIdentity): RunnerConnections {
  const http = new HttpClient(identity);
  const { credentials } = config;
  const tokens = new RunnerTokenSource(http, {
    clientId: credentials.clientId,
    authorizationUrl: credentials.authorizationUrl,
    requireFipsCryptography: credentials.requireFipsCryptography,
    key: config.key,
    ...(credentials.oauthEndpointUrl === undefined ? {} : { oauthEndpointUrl: credentials.oauthEndpointUrl }),
  });
  const vss = new VssConnection(http, config.settings.serverUrl, { kind: 'runner', tokens });
  const raw = new RawClient(http, tokens);
  return { http, tokens, vss, legacy: new LegacyQueueClient(vss, config.settings.poolId), raw, runService: new RunServiceClient(raw) };
}
