import { linkSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GUEST_SOCKET_LINK } from './init-script.js';

const SOCKET_DIR = 'socket';

/**
 * Gives a guest its own directory holding a hard link to the runner socket: the guest binds the
 * directory, not the socket file, so when a restarted server binds a new socket at the same path
 * (a new inode), `relinkGuestSocket` puts it under the guest's link name and the guest's
 * forwarder reaches the new server. A hard link needs the socket and the data directory on one
 * file system: otherwise undefined, and the guest binds the socket file (it then reaches only the
 * server that launched it).
 */
export function linkGuestSocket(stateDir: string, runnerSocket: string): string | undefined {
  const dir = join(stateDir, SOCKET_DIR);
  try {
    mkdirSync(dir, { mode: 0o700 });
    linkSync(runnerSocket, join(dir, GUEST_SOCKET_LINK));
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Points an adopted guest's socket link at the runner socket this server listens on; false when it cannot. */
export function relinkGuestSocket(stateDir: string, runnerSocket: string): boolean {
  const dir = join(stateDir, SOCKET_DIR);
  const fresh = join(dir, `${GUEST_SOCKET_LINK}.new`);
  try {
    rmSync(fresh, { force: true });
    linkSync(runnerSocket, fresh);
    renameSync(fresh, join(dir, GUEST_SOCKET_LINK));
    return true;
  } catch {
    return false;
  }
}
