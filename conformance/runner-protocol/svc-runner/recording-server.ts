/**
 * `svc serve` in this process for one server profile of corpus.yaml, as the replay starts it
 * (replay/in-process-server.ts: temp data dir, SQLite, memory credentials, permissive
 * registration, the profile's environment, timings, public host and action mirror), with every
 * request recorded.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, createSilentLogger, defaultCatalog, type Host } from '../../../core/kernel/index.js';
import { createRunnerProtocolPlugin } from '../../../plugins/runner-protocol/index.js';
import { createActionMirror } from '../replay/action-mirror.js';
import type { Target } from '../replay/execute.js';
import { PERMISSIVE_REGISTRATION_TOKEN } from '../replay/in-process-server.js';
import type { ServerProfile } from '../replay/scenario-types.js';
import { Recorder } from './recorder.js';

export interface RecordingServer {
  readonly target: Target;
  readonly recorder: Recorder;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startRecordingServer(profile: ServerProfile, defaultTimings: Readonly<Record<string, number>>): Promise<RecordingServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-runner-seq-'));
  const systemToken = randomBytes(24).toString('hex');
  const env: Record<string, string> = {
    HOME: dir,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_CREDENTIAL_STORE: 'memory',
    SVC_SYSTEM_TOKEN: systemToken,
    SVC_LISTEN: '127.0.0.1:0',
    SVC_LOG_LEVEL: 'silent',
    SVC_REGISTRATION_POLICY: 'permissive',
    ...profile.env,
  };
  const timings = profile.timings ?? {};
  const recorder = new Recorder(systemToken);
  let host: Host | undefined;
  try {
    if (profile.publicHost !== undefined) {
      const port = await freePort();
      env.SVC_LISTEN = `127.0.0.1:${port}`;
      env.SVC_PUBLIC_URL = `http://${profile.publicHost}:${port}`;
    }
    if (profile.mirror !== undefined) env.SVC_ACTIONS_MIRROR_DIR = createActionMirror(join(dir, 'mirror'), profile.mirror);
    const catalog = { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'runner-protocol': async () => ({ plugin: createRunnerProtocolPlugin({ timings }) }) } };
    host = await createHost({ env, cwd: dir, logger: createSilentLogger(), catalog: recorder.wrapCatalog(catalog) });
    recorder.tap(host.app.server);
    const listening = (await host.start()).replace(/\/+$/, '');
    const started = host;
    return {
      target: { origin: env.SVC_PUBLIC_URL ?? listening, systemToken, registrationToken: PERMISSIVE_REGISTRATION_TOKEN, timings: { ...defaultTimings, ...timings } },
      recorder,
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
