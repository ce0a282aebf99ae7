import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { UnavailableError } from '../../../../core/kernel/index.js';
import { GUEST_LOG_FILES, guestLogs } from '../guest-log.js';
import type { Guest, GuestExit, GuestLaunch } from '../isolation-backend.js';
import { processAlive, processStartTime, waitUntilGone } from '../process-liveness.js';
import { createGuestCgroup, removeCgroupDir, type GuestCgroup } from './cgroup-limits.js';
import { relinkGuestSocket } from './guest-socket.js';
import { GUEST_SOCKET_LINK, INIT_READY, INIT_STARTED } from './init-script.js';
import { openLifeline, startSlirp, type Lifeline, type Slirp } from './slirp.js';

export interface GuestTools {
  readonly unshare: string;
  readonly setpriv: string;
  readonly sh: string;
  readonly slirp4netns: string | undefined;
}

/** The namespaces of a guest; `--kill-child`: the guest dies with `unshare`. */
const UNSHARE_FLAGS = ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--uts', '--ipc', '--net', '--kill-child=SIGKILL'];

/** The FIFO tying slirp4netns's life to the guest's init (slirp.ts). */
const LIFELINE_FILE = 'network-lifeline';

/** How much of an adopted guest's logs is forwarded again (its last lines, for a failure message). */
const ADOPTED_TAIL_BYTES = 4 * 1024;

/** What a later server needs to adopt a namespace guest (kept in the guest's record). */
export interface NamespaceGuestHandle {
  readonly unshare: { readonly pid: number; readonly startTime: string };
  readonly initPid: number | undefined;
  readonly slirp: { readonly pid: number; readonly startTime: string } | undefined;
  readonly cgroupDirs: readonly string[];
}

/**
 * Runs the guest init under `unshare` and drives the handshake: the init reports its namespaces
 * and root ready on fd 3, the host puts it in its cgroups, starts slirp4netns on its network
 * namespace, says go on fd 4, and the init reports the runner started. The guest outlives the
 * server: `unshare` (and slirp4netns) run in their own session with no parent-death signal, and
 * write to files in the state dir (guest-log.ts), never to the server's pipes; a killed server's guest
 * goes on with its job and the next server adopts it (`adoptNamespaceGuest`).
 */
export async function runGuest(spec: GuestLaunch, stateDir: string, script: string, tools: GuestTools): Promise<Guest> {
  mkdirSync(`${stateDir}/root`, { recursive: true, mode: 0o700 });
  mkdirSync(`${stateDir}/scratch`, { mode: 0o700 });
  const logs = guestLogs(stateDir);
  const lifeline: Lifeline | undefined = spec.network && tools.slirp4netns !== undefined ? openLifeline(join(stateDir, LIFELINE_FILE)) : undefined;
  const fds = logs.open();
  let child: ChildProcess;
  try {
    child = spawn(tools.unshare, [...UNSHARE_FLAGS, '--', tools.sh, '-c', script, 'svc-guest-init'], {
      cwd: '/',
      env: { ...spec.env },
      detached: true,
      stdio: ['ignore', fds.stdout, fds.stderr, 'pipe', 'pipe', lifeline?.writeFd ?? 'ignore'],
    });
  } catch (error) {
    lifeline?.close();
    throw error;
  } finally {
    fds.close();
  }
  const following = logs.follow(spec.onOutput);
  const stderrTail = () => logs.tail('stderr', 2000);
  const messages = lineQueue(child.stdio[3] as Readable);
  const gate = child.stdio[4] as Writable;
  gate.on('error', () => undefined);
  // unshare's status mirrors its child's, except for a child killed by a signal (util-linux 2.38
  // then exits 1 on a failed re-raise): the only such kill of the init is ours.
  const closed = new Promise<GuestExit>((resolve) => {
    child.once('close', (code, signal) => resolve(killed ? { code: null, signal: 'SIGKILL' } : { code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  let initPid: number | undefined;
  let slirp: Slirp | undefined;
  let cgroup: GuestCgroup | undefined;
  const exited = closed.then(async (exit) => {
    await slirp?.stop();
    await cgroup?.remove();
    following.stop();
    rmSync(stateDir, { recursive: true, force: true });
    return exit;
  });
  // Killing the guest's pid 1 makes the kernel kill the rest of its PID namespace; `unshare`
  // reaps it only once all are gone, so its exit means nothing of the guest runs. (Killing
  // `unshare` itself would not wait: its --kill-child is the fallback before the init is known.)
  let killed = false;
  const kill = () => {
    killed = true;
    signal(initPid ?? child.pid, 'SIGKILL');
  };

  try {
    await expect(messages, INIT_READY, closed, stderrTail);
    initPid = childOf(child.pid ?? 0);
    cgroup = createGuestCgroup(`svc-guest-${spec.guestId}`, spec.limits);
    for (const pid of [child.pid, initPid]) if (pid !== undefined) cgroup.add(pid);
    if (lifeline !== undefined && tools.slirp4netns !== undefined) {
      slirp = await startSlirp(tools.slirp4netns, initPid ?? child.pid ?? 0, join(stateDir, GUEST_LOG_FILES.stderr), lifeline);
    }
    gate.end('go\n');
    await expect(messages, INIT_STARTED, closed, stderrTail);
  } catch (error) {
    lifeline?.close();
    kill();
    await exited;
    throw error;
  }

  const pinnedInit = initPid;
  const unshareStart = child.pid === undefined ? undefined : processStartTime(child.pid);
  const handle: NamespaceGuestHandle | undefined =
    child.pid === undefined || unshareStart === undefined
      ? undefined
      : { unshare: { pid: child.pid, startTime: unshareStart }, initPid, slirp: slirp?.process, cgroupDirs: cgroup?.dirs ?? [] };
  return {
    guestId: spec.guestId,
    pid: child.pid,
    ...(handle === undefined ? {} : { handle }),
    exited,
    async stop(graceMs) {
      if (child.exitCode === null && child.signalCode === null) {
        signal(pinnedInit, 'SIGTERM');
        const timer = setTimeout(kill, graceMs);
        await closed;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/**
 * A namespace guest a previous server of this data directory launched, from its handle:
 * undefined when its `unshare` is gone (its state dir, slirp4netns and cgroups are removed then).
 * `runnerSocket`: this server's; the guest's socket link is pointed at it once it is bound.
 */
export async function adoptNamespaceGuest(guestId: string, stateDir: string, handle: unknown, runnerSocket: string | undefined, onOutput: GuestLaunch['onOutput']): Promise<Guest | undefined> {
  const found = isHandle(handle) ? handle : undefined;
  const cleanUp = async (following?: { stop(): void }) => {
    if (found?.slirp !== undefined && processAlive(found.slirp.pid, found.slirp.startTime)) signal(found.slirp.pid, 'SIGTERM');
    for (const dir of found?.cgroupDirs ?? []) await removeCgroupDir(dir);
    following?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  };
  if (found === undefined || !processAlive(found.unshare.pid, found.unshare.startTime)) {
    await cleanUp();
    return undefined;
  }
  const following = guestLogs(stateDir).follow(onOutput, ADOPTED_TAIL_BYTES);
  if (runnerSocket !== undefined) void followSocket(stateDir, runnerSocket);
  const target = found.initPid ?? found.unshare.pid;
  const exited = waitUntilGone(found.unshare.pid, found.unshare.startTime).then(async () => {
    await cleanUp(following);
    return { code: null, signal: null } satisfies GuestExit;
  });
  let stopping: Promise<GuestExit> | undefined;
  return {
    guestId,
    pid: found.unshare.pid,
    handle: found,
    exited,
    stop(graceMs) {
      stopping ??= (async () => {
        signal(target, 'SIGTERM');
        const timer = setTimeout(() => signal(target, 'SIGKILL'), graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}

const FOLLOW_MS = 500;
const FOLLOW_LIMIT_MS = 5 * 60_000;

/** Once this server has bound its runner socket (a new inode at the path), the guest's link points at it. */
async function followSocket(stateDir: string, runnerSocket: string): Promise<void> {
  const link = join(stateDir, 'socket', GUEST_SOCKET_LINK);
  const inode = (path: string) => {
    try {
      return statSync(path).ino;
    } catch {
      return undefined;
    }
  };
  for (let waited = 0; waited < FOLLOW_LIMIT_MS; waited += FOLLOW_MS) {
    const current = inode(runnerSocket);
    const linked = inode(link);
    if (linked === undefined) return;
    if (current !== undefined && current !== linked && relinkGuestSocket(stateDir, runnerSocket)) return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
  }
}

function isHandle(value: unknown): value is NamespaceGuestHandle {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  const unshare = fields['unshare'] as Record<string, unknown> | undefined;
  return typeof unshare === 'object' && unshare !== null && typeof unshare['pid'] === 'number' && typeof unshare['startTime'] === 'string' && Array.isArray(fields['cgroupDirs']);
}

interface LineQueue {
  next(): Promise<string | undefined>;
}

function lineQueue(stream: Readable): LineQueue {
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  reader.on('line', (line) => (waiting.length > 0 ? waiting.shift()?.(line) : lines.push(line)));
  reader.on('close', () => {
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  return {
    next: () => (lines.length > 0 ? Promise.resolve(lines.shift()) : ended ? Promise.resolve(undefined) : new Promise((resolve) => waiting.push(resolve))),
  };
}

async function expect(messages: LineQueue, wanted: string, closed: Promise<GuestExit>, stderr: () => string): Promise<void> {
  const line = await messages.next();
  if (line === wanted) return;
  const exit = await Promise.race([closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]);
  const how = exit === undefined ? 'stopped answering' : `exited (code ${exit.code ?? 'none'}, signal ${exit.signal ?? 'none'})`;
  throw new UnavailableError(`the namespace guest ${how} before ${wanted === INIT_READY ? 'its root was ready' : 'the runner started'}: ${stderr().trim() || 'no output'}`);
}

/** The init `unshare --fork` started (the guest's pid 1, seen from the host). */
function childOf(pid: number): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    if (first !== undefined && first !== '') return Number(first);
  } catch {
    // no CONFIG_PROC_CHILDREN: scan
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
