import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { BackendProbe } from '../isolation-backend.js';
import { probeLimits } from './cgroup-limits.js';
import { findTool, missingTools } from './host-tools.js';

const TRIAL_TIMEOUT_MS = 15_000;

/** What a guest needs, tried for real in a throw-away set of namespaces (nothing left behind). */
const TRIAL = [
  'set -e',
  'echo stage:mount >&2; mount --make-rprivate /; mount -t tmpfs svc-probe /tmp; mkdir /tmp/u /tmp/w /tmp/m /tmp/p',
  'echo stage:overlay >&2; mount -t overlay -o lowerdir=/usr,upperdir=/tmp/u,workdir=/tmp/w svc-probe /tmp/m',
  'echo stage:proc >&2; mount -t proc proc /tmp/p',
  'echo stage:loopback >&2; ip link set lo up',
  'echo stage:done >&2',
].join('\n');

const STAGE_PROBLEMS: Record<string, string> = {
  start: 'the kernel refuses new user, mount, PID, UTS, IPC or network namespaces',
  mount: 'mounting a tmpfs in a user namespace is refused',
  overlay: 'overlayfs in a user namespace is refused (Linux 5.11 or later is needed)',
  proc: 'mounting /proc in a new PID namespace is refused (is /proc partly masked on this host?)',
  loopback: 'bringing up loopback in a new network namespace failed',
};

export const SLIRP_MISSING = 'outbound network for namespace guests needs slirp4netns: install the Debian package slirp4netns (apt-get install slirp4netns)';

export async function probeNamespaceSupport(slirpOverride: string | undefined): Promise<BackendProbe> {
  if (process.platform !== 'linux') return { ok: false, reason: `namespace guests need Linux (this host is ${process.platform})` };
  const missing = missingTools();
  if (missing.length > 0) return { ok: false, reason: `namespace guests need ${missing.join(', ')} on the PATH (Debian packages util-linux and iproute2)` };
  const disabled = userNamespacesDisabled();
  if (disabled !== undefined) return { ok: false, reason: disabled };
  const trial = await runTrial(findTool('unshare') ?? 'unshare');
  if (trial !== undefined) return { ok: false, reason: trial };
  const slirp = findTool('slirp4netns', slirpOverride);
  const limits = await probeLimits();
  const network = slirp === undefined ? 'outbound network unavailable (install the Debian package slirp4netns)' : `outbound network through ${slirp} when enabled`;
  const enforced = limits.length === 0 ? 'memory and pids limits not enforced (no writable cgroup)' : `${limits.join(' and ')} limits enforced by cgroup${limits.length < 2 ? `, ${limits.includes('memory') ? 'pids' : 'memory'} not enforced` : ''}`;
  return {
    ok: true,
    reason: `user, mount, PID, UTS, IPC and network namespaces over a copy-on-write root; ${network}; ${enforced}`,
    ...(slirp === undefined ? { noOutboundNetwork: SLIRP_MISSING } : {}),
  };
}

function userNamespacesDisabled(): string | undefined {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  if (read('/proc/sys/user/max_user_namespaces') === '0') return 'user namespaces are disabled (user.max_user_namespaces=0)';
  if (process.getuid?.() === 0) return undefined;
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') return 'user namespaces are disabled (kernel.unprivileged_userns_clone=0)';
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return 'AppArmor refuses user namespaces to unprivileged users (kernel.apparmor_restrict_unprivileged_userns=1); run svc as root or allow it';
  }
  return undefined;
}

/** Undefined when the trial passed; else the sentence saying what failed. */
function runTrial(unshare: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(unshare, ['-Urmpf', '--uts', '--ipc', '--net', '--kill-child=SIGKILL', '--', 'sh', '-c', TRIAL], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TRIAL_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(`unshare could not run: ${error.message}`);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && stderr.includes('stage:done')) return resolve(undefined);
      const stage = [...stderr.matchAll(/stage:(\w+)/g)].at(-1)?.[1] ?? 'start';
      const detail = stderr.replace(/stage:\w+\n?/g, '').trim();
      resolve(`${STAGE_PROBLEMS[stage] ?? `the ${stage} step failed`}${detail === '' ? '' : `: ${detail}`}`);
    });
  });
}
