import type { IsolationBackend } from '../isolation-backend.js';
import { adoptProcessGuest, launchProcessGuest } from './process-guest.js';

/** What the process backend isolates: nothing. Logged as a warning when the pool starts with it. */
export const PROCESS_BACKEND_WARNING =
  'the process backend does not isolate guests: each job runs as a plain process started by svc serve, as this user, with the host file system and network (for development only)';

/** `process`: guests are child processes of the server (Linux only, like every guest of the pool). */
export function createProcessBackend(platform: NodeJS.Platform = process.platform): IsolationBackend {
  return {
    kind: 'process',
    async probe() {
      if (platform !== 'linux') return { ok: false, reason: `the built-in pool supplies Linux guests only, and this host runs ${platform}` };
      return { ok: true, reason: 'no isolation: guests are plain child processes' };
    },
    launch: launchProcessGuest,
    adopt: async ({ guestId, runnerRoot, handle, onOutput }) => adoptProcessGuest(guestId, runnerRoot, handle, onOutput),
  };
}
