import { mkdir } from 'node:fs/promises';
import { HttpClient, isHostedServer, requestTenantCredential, type AgentLabel, type RunnerIdentity } from '../client/index.js';
import {
  ROOT_FILES,
  installNodeRuntimes,
  loadOrCreateRunnerKey,
  writeRunnerCredentials,
  writeRunnerSettings,
  type NodeRuntime,
  type RunnerRoot,
  type RunnerSettings,
} from '../config/index.js';
import { ConfigureError, registerWithAgents, registerWithRunnerAdmin, testConnection } from './agent-registration.js';
import type { Terminal } from './terminal.js';

export interface ConfigureOptions {
  readonly root: RunnerRoot;
  /** `--url`: the scope the runner serves (`http://host:port/<owner>/<repo>`, or `/<owner>`). */
  readonly url: string;
  /** `--token`: the registration token (against svc, the system token). */
  readonly token: string;
  readonly name: string;
  readonly labels: readonly string[];
  readonly replace: boolean;
  readonly ephemeral: boolean;
  /** False with `--no-externals`. */
  readonly externals: boolean;
  readonly runtimes: readonly NodeRuntime[];
  /** Where node releases are downloaded from (SVC_RUNNER_NODE_DIST). */
  readonly nodeDist: string;
  readonly work?: string;
  readonly identity: RunnerIdentity;
  readonly term: Terminal;
}

/**
 * `svc-runner configure` (ConfigurationManager.ConfigureAsync, §1.1-§1.8): the JavaScript
 * runtimes first (an unreachable download source then leaves nothing registered), then
 * runner-registration and either the agents resource (with the OAuth connection test) or the
 * runner-admin API, as the server says; `.credentials_rsaparams`, `.credentials`, `.runner`.
 */
export async function configureRunner(options: ConfigureOptions): Promise<RunnerSettings> {
  const { root, term, identity } = options;
  const githubUrl = parseUrl(options.url);
  if (options.token.trim() === '') throw new ConfigureError('--token is empty; pass the registration token (against svc: the system token, SVC_SYSTEM_TOKEN)');
  if ((await root.readText(ROOT_FILES.settings)) !== undefined && !options.replace) {
    throw new ConfigureError(`Runner is already configured in ${root.dir}. Use --replace to configure it again, or \`svc-runner remove\` first.`);
  }
  const labels = userLabels(options.labels);

  if (options.externals) {
    term.section('JavaScript runtimes');
    await installNodeRuntimes(root, options.runtimes, { dist: options.nodeDist, report: (line) => term.line(line) });
  } else {
    term.line('Skipping the JavaScript runtimes (--no-externals): node20 and node24 actions will use the node on PATH.');
  }

  term.section('Authentication');
  const http = new HttpClient(identity);
  const tenant = await requestTenantCredential(http, githubUrl, options.token, 'register');
  const request = {
    githubUrl,
    token: options.token,
    tenant,
    name: options.name,
    labels,
    replace: options.replace,
    ephemeral: options.ephemeral,
    key: () => loadOrCreateRunnerKey(root),
    identity,
    term,
  };
  const registration = tenant.useRunnerAdminFlow ? await registerWithRunnerAdmin(http, request) : await registerWithAgents(http, request);
  await writeRunnerCredentials(root, registration.credentials);
  if (!registration.useV2Flow) await testConnection(http, tenant.tenantUrl, registration, term);

  const settings: RunnerSettings = {
    agentId: registration.agentId,
    agentName: options.name,
    poolId: registration.poolId,
    poolName: registration.poolName,
    serverUrl: tenant.tenantUrl,
    gitHubUrl: githubUrl.href.replace(/\/+$/, ''),
    workFolder: options.work ?? '_work',
    isHostedServer: isHostedServer(githubUrl),
    ...(registration.useV2Flow ? { useV2Flow: true } : {}),
    ...(registration.serverUrlV2 === undefined ? {} : { serverUrlV2: registration.serverUrlV2 }),
    ...(options.ephemeral ? { ephemeral: true } : {}),
    disableUpdate: true,
    ...(registration.useRunnerAdminFlow ? { useRunnerAdminFlow: true } : {}),
  };
  term.section('Runner settings');
  await writeRunnerSettings(root, settings);
  await mkdir(root.workDir(settings.workFolder), { recursive: true });
  await mkdir(root.externalsDir, { recursive: true });
  term.line();
  term.success('Settings Saved.');
  term.line();
  return settings;
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigureError(`--url '${raw}' is not a URL; pass the scope the runner serves, e.g. --url http://127.0.0.1:9090/<owner>/<repo>`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigureError(`--url '${raw}' must be an http or https URL`);
  return url;
}

function userLabels(names: readonly string[]): AgentLabel[] {
  const seen = new Set<string>();
  const labels: AgentLabel[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '' || seen.has(name.toLowerCase())) continue;
    if (name.length > 256) throw new ConfigureError(`the label '${name.slice(0, 40)}…' is longer than 256 characters`);
    seen.add(name.toLowerCase());
    labels.push({ id: 0, name, type: 'user' });
  }
  return labels;
}
