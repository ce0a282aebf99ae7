import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { UnavailableError } from '../../../../core/kernel/index.js';
import type { Guest, GuestExit, GuestLaunch } from '../isolation-backend.js';
import { createGuestCgroup, type GuestCgroup } from './cgroup-limits.js';
import { INIT_READY, INIT_STARTED } from './init-script.js';
import { startSlirp, type Slirp } from './slirp.js';

export interface GuestTools {
  readonly unshare: string;
  readonly setpriv: string;
  readonly sh: string;
  readonly slirp4netns: string | undefined;
}

/** The namespaces of a guest; `--kill-child`: the guest dies with `unshare`. */
const UNSHARE_FLAGS = ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--uts', '--ipc', '--net', '--kill-child=SIGKILL'];

/**
 * Runs the guest init under `unshare` and drives the handshake: the init reports its namespaces
 * and root ready on fd 3, the host puts it in its cgroups, starts slirp4netns on its network
 * namespace, says go on fd 4, and the init reports the runner started.
 */
export async function runGuest(spec: GuestLaunch, stateDir: string, script: string, tools: GuestTools): Promise<Guest> {
  mkdirSync(`${stateDir}/root`, { recursive: true, mode: 0o700 });
  mkdirSync(`${stateDir}/scratch`, { mode: 0o700 });
  // setpriv execs unshare with a parent-death signal: if svc dies, unshare dies, and its
  // --kill-child takes the guest's init (and so the whole guest) with it.
  const child = spawn(tools.setpriv, ['--pdeathsig', 'SIGKILL', '--', tools.unshare, ...UNSHARE_FLAGS, '--', tools.sh, '-c', script, 'svc-guest-init'], {
    cwd: '/',
    env: { ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
  });
  let stderrTail = '';
  forwardLines(child.stdout, (line) => spec.onOutput('stdout', line));
  forwardLines(child.stderr, (line) => {
    stderrTail = `${stderrTail}${line}\n`.slice(-2000);
    spec.onOutput('stderr', line);
  });
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
    await expect(messages, INIT_READY, closed, () => stderrTail);
    initPid = childOf(child.pid ?? 0);
    cgroup = createGuestCgroup(`svc-guest-${spec.guestId}`, spec.limits);
    for (const pid of [child.pid, initPid]) if (pid !== undefined) cgroup.add(pid);
    if (spec.network && tools.slirp4netns !== undefined) {
      slirp = await startSlirp(tools.slirp4netns, initPid ?? child.pid ?? 0, (line) => spec.onOutput('stderr', `slirp4netns: ${line}`));
    }
    gate.end('go\n');
    await expect(messages, INIT_STARTED, closed, () => stderrTail);
  } catch (error) {
    kill();
    await exited;
    throw error;
  }

  const pinnedInit = initPid;
  return {
    guestId: spec.guestId,
    pid: child.pid,
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

function forwardLines(stream: Readable | null, onLine: (line: string) => void): void {
  if (stream !== null) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
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
