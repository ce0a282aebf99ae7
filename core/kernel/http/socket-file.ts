import { chmod, lstat, stat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';

const KNOB = 'SVC_RUNNER_SOCKET';
/** How long the probe of an existing socket waits for an answer before calling it stale. */
const PROBE_TIMEOUT_MS = 1000;

/** The file a listener created, to remove exactly that file at stop and not a successor's. */
export interface SocketFileIdentity {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Connects to a socket file: true when someone accepts, false when nobody listens (stale). */
function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path });
    const done = (result: boolean | Error) => {
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(true));
    socket.once('connect', () => done(true));
    socket.once('error', (error) => {
      const errno = code(error);
      if (errno === 'ECONNREFUSED' || errno === 'ENOENT') done(false);
      else done(new ConfigError(`${KNOB}=${path}: cannot tell whether another process listens there (${errno ?? error.message}); remove the file or choose another path`));
    });
  });
}

/**
 * Makes the path ready to bind: its directory must exist; a socket file nobody listens on (left
 * by a process that did not stop cleanly) is removed; anything else there stops the start.
 */
export async function prepareSocketPath(path: string): Promise<void> {
  const directory = dirname(path);
  try {
    if (!(await stat(directory)).isDirectory()) throw new ConfigError(`${KNOB}=${path}: ${directory} is not a directory`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (code(error) === 'ENOENT') throw new ConfigError(`${KNOB}=${path}: the directory ${directory} does not exist; create it (mode 0700) or choose another path`);
    throw new ConfigError(`${KNOB}=${path}: cannot read the directory ${directory}: ${(error as Error).message}`, { cause: error });
  }
  let existing;
  try {
    existing = await lstat(path);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    throw new ConfigError(`${KNOB}=${path}: cannot inspect the path: ${(error as Error).message}`, { cause: error });
  }
  if (!existing.isSocket()) throw new ConfigError(`${KNOB}=${path} exists and is not a socket; remove it or choose another path`);
  if (await someoneListens(path)) throw new ConfigError(`${KNOB}=${path} is in use: another process (another svc serve?) listens on it; stop it or choose another path`);
  try {
    await unlink(path);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw new ConfigError(`${KNOB}=${path}: cannot remove the stale socket file: ${(error as Error).message}`, { cause: error });
  }
}

/** After listening: the socket file is owner-only (tightened if the platform ignored the umask). */
export async function secureSocketFile(path: string): Promise<SocketFileIdentity> {
  const info = await lstat(path);
  if (!info.isSocket()) throw new ConfigError(`${KNOB}=${path}: the file at the path is not the socket just bound`);
  if ((info.mode & 0o777) !== 0o600) await chmod(path, 0o600);
  return { path, dev: info.dev, ino: info.ino };
}

/** Removes the socket file at stop, if it is still the one this listener created. */
export async function removeSocketFile(identity: SocketFileIdentity): Promise<void> {
  try {
    const info = await lstat(identity.path);
    if (info.isSocket() && info.dev === identity.dev && info.ino === identity.ino) await unlink(identity.path);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw error;
  }
}

/** A failed bind, said in terms of the knob. */
export function socketListenError(path: string, error: unknown): ConfigError {
  const errno = code(error);
  const reason =
    errno === 'EACCES' || errno === 'EPERM'
      ? 'permission denied; svc needs write access to the directory'
      : errno === 'EADDRINUSE'
        ? 'a file appeared at the path while starting'
        : errno === 'ENOENT' || errno === 'ENOTDIR'
          ? `the directory ${dirname(path)} does not exist`
          : (error as Error).message;
  return new ConfigError(`${KNOB}=${path}: cannot listen: ${reason}`, { cause: error });
}
