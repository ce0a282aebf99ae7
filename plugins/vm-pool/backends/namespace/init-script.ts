import { FORWARDER_SOURCE } from './forwarder-source.js';
import type { GuestPlan } from './guest-plan.js';

/** Host-side tools the script runs by absolute path (the others come from the guest's /usr). */
export interface InitTools {
  readonly setpriv: string;
  readonly node: string;
}

/**
 * Messages the init writes on fd 3; the host answers `go` on fd 4 once limits and slirp are set.
 * Fd 5, when open, is the write end of the guest's network lifeline: the init keeps it for its
 * whole life and closes it for everything it starts.
 */
export const INIT_READY = 'svc-guest-ready';
export const INIT_STARTED = 'svc-guest-started';

const DEVICES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];
const PROC_READ_ONLY = ['sys', 'sysrq-trigger', 'irq', 'bus', 'fs'];
const PROC_MASKED = ['kcore', 'keys', 'timer_list', 'sched_debug', 'latency_stats'];
// Removed, not emptied: a copy-up of a file whose group is not mapped in the guest fails
// (EOVERFLOW); where the guest may not even remove them (svc not root), covered by /dev/null.
const ETC_REMOVED = ['shadow', 'shadow-', 'gshadow', 'gshadow-', 'sudoers'];
const GUEST_SOCKET = '/run/svc/runner.sock';
/** Where the guest sees its socket directory (plan.forward.socketDir), read-only. */
const GUEST_SOCKET_DIR = '/run/svc/host';
/** The name of the socket's link in that directory. */
export const GUEST_SOCKET_LINK = 'runner.sock';
const DROP_PRIVILEGES = '--no-new-privs --inh-caps=-all --ambient-caps=-all --bounding-set=-all --';

/**
 * The guest's own /etc/hosts, hostname and resolv.conf, bound over the host's: a bind works even
 * where the guest may not write the host's copy (svc not root: root's files are not mapped).
 */
function etcFiles(plan: GuestPlan): Record<string, string> {
  return { hosts: plan.hosts, hostname: `${plan.guestId}\n`, 'resolv.conf': plan.network ? 'nameserver 10.0.2.3\n' : '' };
}

/** Single-quotes a word for sh. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The guest's init (POSIX sh), pid 1 of the guest's PID namespace, run by `unshare` with the
 * launch's env as its own environment (so nothing else is inherited by the runner). It builds the
 * root on a tmpfs, pivots into it, waits for the host's go, starts the forwarder, then runs the
 * runner without capabilities and forwards SIGTERM to it. When it exits, the kernel kills
 * everything left in the namespace.
 */
export function initScript(plan: GuestPlan, tools: InitTools): string {
  const q = shellQuote;
  const root = `${plan.stateDir}/root`;
  const scratch = `${plan.stateDir}/scratch`;
  const at = (path: string) => q(`${root}${path}`);
  const lines: string[] = [
    'set -eu',
    'svc_path_set=${PATH+x}; svc_path=${PATH-}',
    'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
    'mount --make-rprivate /',
    `mount -t tmpfs -o mode=0755 svc-root ${q(root)}`,
    `mount -t tmpfs -o mode=0700 svc-scratch ${q(scratch)}`,
  ];
  for (const entry of plan.topLevel) {
    if (entry.kind === 'symlink') {
      lines.push(`ln -s ${q(entry.target)} ${at(`/${entry.name}`)}`);
      continue;
    }
    const upper = q(`${scratch}/upper/${entry.name}`);
    const work = q(`${scratch}/work/${entry.name}`);
    lines.push(
      `mkdir -p ${upper} ${work} ${at(`/${entry.name}`)}`,
      `mount -t overlay -o ${q(`lowerdir=/${entry.name},upperdir=${scratch}/upper/${entry.name},workdir=${scratch}/work/${entry.name}`)} svc-${entry.name} ${at(`/${entry.name}`)}`,
    );
  }
  // /etc is the host's, through the writable layer: secrets removed, names of this guest.
  lines.push(
    ...ETC_REMOVED.map((file) => `if [ -e ${at(`/etc/${file}`)} ]; then rm -f ${at(`/etc/${file}`)} 2>/dev/null || mount --bind /dev/null ${at(`/etc/${file}`)}; fi`),
    `rm -f ${at('/etc/ssh')}/ssh_host_*_key 2>/dev/null || :`,
    `mkdir ${q(`${scratch}/etc`)}`,
    ...Object.entries(etcFiles(plan)).flatMap(([name, content]) => [
      `printf '%s' ${q(content)} > ${q(`${scratch}/etc/${name}`)}`,
      `[ -e ${at(`/etc/${name}`)} ] || touch ${at(`/etc/${name}`)}`,
      `mount --bind ${q(`${scratch}/etc/${name}`)} ${at(`/etc/${name}`)}`,
    ]),
    `mkdir -p ${at('/tmp')} ${at('/var/tmp')} ${at('/run/svc')} ${at('/root')} ${at('/home')} ${at('/dev')} ${at('/proc')} ${at('/.old-root')}`,
    `chmod 1777 ${at('/var/tmp')}`,
    `mount -t tmpfs -o mode=1777,nosuid,nodev svc-tmp ${at('/tmp')}`,
    // A minimal /dev: the host's harmless device nodes bound in, private pts and shm.
    `mount -t tmpfs -o mode=0755,nosuid,noexec svc-dev ${at('/dev')}`,
    ...DEVICES.map((dev) => `: > ${at(`/dev/${dev}`)}; mount --bind /dev/${dev} ${at(`/dev/${dev}`)}`),
    `mkdir -p ${at('/dev/pts')} ${at('/dev/shm')}`,
    `mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts ${at('/dev/pts')} 2>/dev/null && ln -s pts/ptmx ${at('/dev/ptmx')} || :`,
    `mount -t tmpfs -o mode=1777,nosuid,nodev svc-shm ${at('/dev/shm')}`,
    `ln -s /proc/self/fd ${at('/dev/fd')}; ln -s /proc/self/fd/0 ${at('/dev/stdin')}; ln -s /proc/self/fd/1 ${at('/dev/stdout')}; ln -s /proc/self/fd/2 ${at('/dev/stderr')}`,
    // A fresh /proc of the guest's PID namespace; the kernel's knobs read-only, leaky files masked.
    `mount -t proc -o nosuid,nodev,noexec proc ${at('/proc')}`,
    `echo 0 > ${at('/proc/sys/net/ipv4/ip_unprivileged_port_start')}`,
    // sethostname(2) needs only the UTS namespace; the sysctl file is the host root's.
    `hostname ${q(plan.guestId)} 2>/dev/null || echo ${q(plan.guestId)} > ${at('/proc/sys/kernel/hostname')}`,
    'ip link set lo up',
    ...PROC_READ_ONLY.map((name) => `if [ -e ${at(`/proc/${name}`)} ]; then mount --bind ${at(`/proc/${name}`)} ${at(`/proc/${name}`)} && mount -o remount,bind,ro ${at(`/proc/${name}`)}; fi`),
    ...PROC_MASKED.map((name) => `if [ -f ${at(`/proc/${name}`)} ]; then mount --bind /dev/null ${at(`/proc/${name}`)}; fi`),
  );
  for (const dir of plan.readOnlyBinds) {
    lines.push(`mkdir -p ${at(dir)}`, `mount --bind ${q(dir)} ${at(dir)}`, `mount -o remount,bind,ro ${at(dir)}`);
  }
  for (const path of plan.masks) lines.push(`mount -t tmpfs -o mode=0755,nosuid,nodev svc-mask ${at(path)}`);
  lines.push(`mkdir -p ${at(plan.runnerRoot)}`, `mount --bind ${q(plan.runnerRoot)} ${at(plan.runnerRoot)}`);
  for (const mount of plan.mounts) {
    lines.push(`mkdir -p ${at(mount.path)}`, `mount --bind ${q(mount.path)} ${at(mount.path)}`);
    if (!mount.writable) lines.push(`mount -o remount,bind,ro ${at(mount.path)}`);
  }
  if (plan.forward?.socketDir !== undefined) {
    lines.push(`mkdir -p ${at(GUEST_SOCKET_DIR)}`, `mount --bind ${q(plan.forward.socketDir)} ${at(GUEST_SOCKET_DIR)}`, `mount -o remount,bind,ro ${at(GUEST_SOCKET_DIR)}`);
  } else if (plan.forward !== undefined) {
    lines.push(`: > ${at(GUEST_SOCKET)}`, `mount --bind ${q(plan.forward.socket)} ${at(GUEST_SOCKET)}`);
  }
  lines.push(
    `cd ${q(root)}`,
    'pivot_root . .old-root',
    'cd /',
    'umount -l /.old-root',
    'rmdir /.old-root',
    `echo ${INIT_READY} >&3`,
    'read -r svc_go <&4',
  );
  if (plan.forward !== undefined) {
    lines.push(
      `env -i ${q(tools.setpriv)} ${DROP_PRIVILEGES} ${q(tools.node)} -e ${q(FORWARDER_SOURCE)} ${plan.forward.socketDir === undefined ? GUEST_SOCKET : `${GUEST_SOCKET_DIR}/${GUEST_SOCKET_LINK}`} ${plan.forward.port} /run/svc/forwarder.ready 3>&- 4>&- 5>&- &`,
      'svc_forwarder=$!',
      'while [ ! -e /run/svc/forwarder.ready ]; do',
      '  kill -0 "$svc_forwarder" 2>/dev/null || { echo "svc guest: the forwarder did not start" >&2; exit 70; }',
      '  sleep 0.01',
      'done',
    );
  }
  lines.push(
    `echo ${INIT_STARTED} >&3`,
    'exec 3>&- 4>&-',
    `cd ${q(plan.runnerRoot)}`,
    'if [ -n "$svc_path_set" ]; then PATH=$svc_path; else unset PATH; fi',
    ...(plan.unset.length > 0 ? [`unset ${plan.unset.join(' ')}`] : []),
    // svc serve runs under umask 077 (its data dir is owner-only); jobs get the usual 022.
    'umask 022',
    'set +e',
    'svc_runner=',
    `trap 'if [ -n "$svc_runner" ]; then kill -TERM "$svc_runner" 2>/dev/null; fi' TERM INT HUP`,
    `${q(tools.setpriv)} ${DROP_PRIVILEGES} ${[plan.command, ...plan.args].map(q).join(' ')} 5>&- &`,
    'svc_runner=$!',
    'while :; do',
    '  wait "$svc_runner"; svc_status=$?',
    '  kill -0 "$svc_runner" 2>/dev/null || break',
    'done',
    'exit "$svc_status"',
  );
  return `${lines.join('\n')}\n`;
}
