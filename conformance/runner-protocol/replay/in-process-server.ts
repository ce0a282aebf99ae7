/**
 * The server the replay starts when it is given no `--url`: `svc serve` in this process, with the
 * default plugins.toml, SQLite in a temp data dir, memory credentials, a fresh system token, a
 * loopback port, and `SVC_REGISTRATION_POLICY=permissive` (spec: Authentication 6, for conformance
 * replay only). A server profile of corpus.yaml adds its environment (`SVC_RUNNER_FLOW`) and the
 * runner-protocol timings the scenarios rely on (a short long-poll hold), a public host name under
 * `.localhost` (the toolkit treats such hosts as GitHub-like) and an action mirror.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCatalog } from '../../../builtins/index.js';
import { createHost, createSilentLogger, type Host } from '../../../core/kernel/index.js';
import { createRunnerProtocolPlugin } from '../../../plugins/runner-protocol/index.js';
import { createActionMirror } from './action-mirror.js';
import type { Target } from './execute.js';
import type { ServerProfile } from './scenario-types.js';

export interface InProcessServer {
  readonly target: Target;
  stop(): Promise<void>;
}

/** For tools that watch the server (svc-runner/recording-server.ts): the token, the plugins, the HTTP server before it listens. */
export interface InProcessServerOptions {
  readonly systemToken?: string;
  readonly wrapCatalog?: (catalog: typeof defaultCatalog) => typeof defaultCatalog;
  readonly beforeStart?: (host: Host) => void;
}

/** Any non-empty credential registers under the permissive policy: this one is deliberately not the system token. */
export const PERMISSIVE_REGISTRATION_TOKEN = 'replay-registration-token';

/** A free loopback port (for a server whose public URL must name its port before it listens). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startInProcessServer(
  profile: ServerProfile,
  defaultTimings: Readonly<Record<string, number>>,
  options: InProcessServerOptions = {},
): Promise<InProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-replay-'));
  const systemToken = options.systemToken ?? randomBytes(24).toString('hex');
  const env: Record<string, string> = {
    HOME: dir,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_CREDENTIAL_STORE: 'memory',
    SVC_SYSTEM_TOKEN: systemToken,
    SVC_LISTEN: '127.0.0.1:0',
    SVC_LOG_LEVEL: 'silent',
    SVC_REGISTRATION_POLICY: 'permissive',
    // The replay is the only runner here: no built-in pool guests.
    SVC_POOL_BACKEND: 'off',
    ...profile.env,
  };
  const timings = profile.timings ?? {};
  let host: Host | undefined;
  try {
    if (profile.publicHost !== undefined) {
      const port = await freePort();
      env.SVC_LISTEN = `127.0.0.1:${port}`;
      env.SVC_PUBLIC_URL = `http://${profile.publicHost}:${port}`;
    }
    if (profile.mirror !== undefined) env.SVC_ACTIONS_MIRROR_DIR = createActionMirror(join(dir, 'mirror'), profile.mirror);
    const catalog = {
      ...defaultCatalog,
      plugins: { ...defaultCatalog.plugins, 'runner-protocol': async () => ({ plugin: createRunnerProtocolPlugin({ timings }) }) },
    };
    host = await createHost({ env, cwd: dir, logger: createSilentLogger(), catalog: options.wrapCatalog?.(catalog) ?? catalog });
    options.beforeStart?.(host);
    const listening = (await host.start()).replace(/\/+$/, '');
    const origin = env.SVC_PUBLIC_URL ?? listening;
    const started = host;
    return {
      target: { origin, systemToken, registrationToken: PERMISSIVE_REGISTRATION_TOKEN, timings: { ...defaultTimings, ...timings } },
      async stop() {
        try {
          await started.stop();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await host?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
