/**
 * `svc serve` in this process for one server profile of corpus.yaml, started as the replay starts
 * it (replay/in-process-server.ts), with every request recorded.
 */
import { randomBytes } from 'node:crypto';
import type { Catalog } from '../../../core/kernel/index.js';
import type { Target } from '../replay/execute.js';
import { startInProcessServer } from '../replay/in-process-server.js';
import type { ServerProfile } from '../replay/scenario-types.js';
import { Recorder } from './recorder.js';

export interface RecordingServer {
  readonly target: Target;
  readonly recorder: Recorder;
  stop(): Promise<void>;
}

export async function startRecordingServer(
  profile: ServerProfile,
  defaultTimings: Readonly<Record<string, number>>,
  /** Applied before the recorder's (the test suite seeds the server's signing key). */
  wrapCatalog: (catalog: Catalog) => Catalog = (catalog) => catalog,
): Promise<RecordingServer> {
  const systemToken = randomBytes(24).toString('hex');
  const recorder = new Recorder(systemToken);
  const server = await startInProcessServer(profile, defaultTimings, {
    systemToken,
    wrapCatalog: (catalog) => recorder.wrapCatalog(wrapCatalog(catalog)),
    beforeStart: (host) => recorder.tap(host.app.server),
  });
  return { target: server.target, recorder, stop: () => server.stop() };
}
