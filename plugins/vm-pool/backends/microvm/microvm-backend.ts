import { randomBytes } from 'node:crypto';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError, UnavailableError } from '../../../../core/kernel/index.js';
import { createGuestStateDir } from '../guest-state-dir.js';
import type { BackendProbe, Guest, GuestLaunch, IsolationBackend } from '../isolation-backend.js';
import { planGuest, type GuestPlan } from '../namespace/guest-plan.js';
import { findTool } from '../namespace/host-tools.js';
import { LAUNCH_FILE, RUNNER_ROOT_TAG } from './guest-init.js';
import { guestScript, type Share } from './guest-script.js';
import { runVm, type VmProcess } from './guest-vm.js';
import { checkMicrovmHost, type MicrovmHost, type MicrovmHostOptions } from './host-requirements.js';
import { ensureInitramfs } from './initramfs.js';
import { bootableKernel } from './kernel-image.js';
import { qemuCommand } from './qemu-command.js';

export interface MicrovmBackendOptions extends MicrovmHostOptions {
  /** svc's data dir: guests' host-side state and the initramfs cache go under it; hidden from guests. */
  readonly dataDir: string;
  /** How long a guest may take from qemu's start to its runner's start (default 120 s). */
  readonly bootTimeoutMs?: number;
  /** Virtual CPUs per guest (default: the host's CPU count). */
  readonly cpus?: number;
}

const DEFAULT_MEMORY_MIB = 2048;
const NETWORK_TOOLS_MISSING = 'outbound network for microvm guests needs slirp4netns and unshare (apt-get install slirp4netns util-linux)';
const MIN_MEMORY_MIB = 256;

/**
 * `microvm`: each guest is a virtual machine (qemu with KVM) booting the host's kernel with an
 * initramfs svc builds; it sees the host's system directories read-only (with a private writable
 * layer), its runner root read-write, and of the host's network only the runner socket (plus,
 * with network on, the outside world through slirp4netns, never the host's loopback).
 */
export function createMicrovmBackend(options: MicrovmBackendOptions): IsolationBackend {
  const dataDir = resolve(options.dataDir);
  const guestsDir = join(dataDir, 'microvm-guests');
  let checked: MicrovmHost | undefined;
  const host = (): MicrovmHost => {
    if (checked !== undefined) return checked;
    const check = checkMicrovmHost(options);
    if (!check.ok) throw new UnavailableError(check.reason);
    checked = check.host;
    return checked;
  };
  return {
    kind: 'microvm',
    async probe(): Promise<BackendProbe> {
      const check = checkMicrovmHost(options);
      if (!check.ok) return { ok: false, reason: check.reason };
      const { accel, kernelVersion, qemu, slirp4netns, unshare } = check.host;
      const machine = accel === 'kvm' ? 'KVM virtual machines' : 'emulated virtual machines (TCG: no KVM, slow)';
      const offline = slirp4netns === undefined || unshare === undefined;
      const network = offline ? 'outbound network unavailable (install the Debian packages slirp4netns and util-linux)' : 'outbound network through slirp4netns when enabled';
      return {
        ok: true,
        reason: `${machine} (${qemu}, kernel ${kernelVersion}) over read-only shares of the host's system directories; ${network}`,
        ...(offline ? { noOutboundNetwork: NETWORK_TOOLS_MISSING } : {}),
      };
    },
    async launch(spec: GuestLaunch): Promise<Guest> {
      const found = host();
      const socket = spec.runnerSocket;
      if (socket !== undefined && /[\s,:'"\\]/.test(socket)) throw new InputError(`the runner socket path ${socket} cannot hold blanks, quotes, ',', ':' or '\\' (qemu and socat parse it): set SVC_RUNNER_SOCKET`);
      const unshare = found.unshare;
      const slirp4netns = found.slirp4netns;
      if (spec.network && (unshare === undefined || slirp4netns === undefined)) {
        throw new UnavailableError(NETWORK_TOOLS_MISSING);
      }
      const stateDir = join(guestsDir, spec.guestId);
      const plan = planGuest(spec, { dataDir, stateDir, forwarderNode: realpathSync(process.execPath) });
      createGuestStateDir(stateDir, 'microvm');
      try {
        return await startGuest(spec, { host: found, plan, stateDir, cacheDir: join(dataDir, 'microvm'), bootTimeoutMs: options.bootTimeoutMs ?? 120_000, cpus: options.cpus ?? availableParallelism() });
      } catch (error) {
        // Nothing of a guest that did not start stays behind, least of all its launch file.
        rmSync(join(plan.runnerRoot, LAUNCH_FILE), { force: true });
        rmSync(stateDir, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

interface GuestSetup {
  readonly host: MicrovmHost;
  readonly plan: GuestPlan;
  readonly stateDir: string;
  readonly cacheDir: string;
  readonly bootTimeoutMs: number;
  readonly cpus: number;
}

/** Shares, launch file, kernel and initramfs, qemu's command line; then boots the guest. */
async function startGuest(spec: GuestLaunch, setup: GuestSetup): Promise<Guest> {
  const { host, plan, stateDir } = setup;
  const shares: Share[] = [{ tag: RUNNER_ROOT_TAG, hostPath: plan.runnerRoot, readOnly: false }];
  const systemTags = new Map<string, string>();
  for (const entry of plan.topLevel) {
    if (entry.kind !== 'overlay') continue;
    systemTags.set(entry.name, `sys-${entry.name}`);
    shares.push({ tag: `sys-${entry.name}`, hostPath: `/${entry.name}`, readOnly: true });
  }
  const bindTags = new Map<string, string>();
  plan.readOnlyBinds.forEach((dir, index) => {
    bindTags.set(dir, `ro-${index}`);
    shares.push({ tag: `ro-${index}`, hostPath: dir, readOnly: true });
  });
  const mountTags = new Map<string, string>();
  plan.mounts.forEach((mount, index) => {
    mountTags.set(mount.path, `mnt-${index}`);
    shares.push({ tag: `mnt-${index}`, hostPath: mount.path, readOnly: !mount.writable });
  });
  const nonce = randomBytes(12).toString('hex');
  const launchFile = join(plan.runnerRoot, LAUNCH_FILE);
  writeFileSync(launchFile, guestScript({ plan, systemTags, bindTags, mountTags, env: spec.env, nonce }), { mode: 0o600, flag: 'wx' });
  const qemu = qemuCommand({
    host,
    kernel: await bootableKernel(host.kernel, host.kernelVersion, setup.cacheDir),
    initramfs: ensureInitramfs(host, setup.cacheDir),
    memoryMiB: Math.max(MIN_MEMORY_MIB, spec.limits.memoryBytes === undefined ? DEFAULT_MEMORY_MIB : Math.floor(spec.limits.memoryBytes / 2 ** 20)),
    cpus: setup.cpus,
    shares,
    network: spec.network,
    forward: plan.forward,
  });
  const namespaced = spec.network ? { unshare: host.unshare ?? 'unshare', slirp4netns: host.slirp4netns ?? 'slirp4netns', stateDir } : undefined;
  return runVm(spec, vmProcess(qemu, namespaced), { nonce, stateDir, launchFile, bootTimeoutMs: setup.bootTimeoutMs });
}

/**
 * qemu under `setpriv --pdeathsig` (it dies with svc). With network, in a fresh user, network and
 * mount namespace that slirp4netns connects with host loopback disabled: qemu's own user network
 * would otherwise let the guest reach the host's 127.0.0.1 as 10.0.2.2. Its resolv.conf points
 * at slirp4netns's DNS, which qemu forwards the guest's queries to.
 */
function vmProcess(qemu: { program: string; args: string[] }, namespaced: { unshare: string; slirp4netns: string; stateDir: string } | undefined): VmProcess {
  const setpriv = findTool('setpriv');
  const guard = (argv: string[]) => (setpriv === undefined ? argv : [setpriv, '--pdeathsig', 'SIGKILL', '--', ...argv]);
  if (namespaced === undefined) {
    const [program, ...args] = guard([qemu.program, ...qemu.args]);
    return { program: program ?? qemu.program, args, slirp4netns: undefined };
  }
  const resolvConf = join(namespaced.stateDir, 'resolv.conf');
  writeFileSync(resolvConf, 'nameserver 10.0.2.3\n', { mode: 0o644 });
  // Without the bind (no /etc/resolv.conf) only name resolution suffers, never the isolation.
  const script = 'conf=$1; shift; mount --bind "$conf" /etc/resolv.conf 2>/dev/null; exec "$@"';
  const [program, ...args] = guard([namespaced.unshare, '--user', '--map-root-user', '--net', '--mount', '--', findTool('sh') ?? '/bin/sh', '-c', script, 'svc-microvm', resolvConf, qemu.program, ...qemu.args]);
  return { program: program ?? namespaced.unshare, args, slirp4netns: namespaced.slirp4netns };
}
