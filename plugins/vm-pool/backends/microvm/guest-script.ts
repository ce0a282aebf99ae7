import type { GuestPlan } from '../namespace/guest-plan.js';
import { shellQuote as q } from '../namespace/init-script.js';

/** A host directory shared into the guest over virtio-9p under `tag`. */
export interface Share {
  readonly tag: string;
  readonly hostPath: string;
  readonly readOnly: boolean;
}

/** Where the guest reaches the host's runner-socket forward (qemu's guestfwd). */
export const FORWARD_ADDRESS = '10.0.2.100';
/** Console lines the guest writes for the host, followed by `:<nonce>` (and `:<code>` on exit). */
export const READY_MARKER = 'svc-guest-ready';
export const EXIT_MARKER = 'svc-guest-exit';
/** The console line the host writes to make the init send SIGTERM to the runner. */
export const STOP_LINE = 'svc-stop';

/** Host files a guest must not read even through its own /etc layer. */
const ETC_REMOVED = ['shadow', 'shadow-', 'gshadow', 'gshadow-', 'sudoers'];
const DROP_PRIVILEGES = '--no-new-privs --inh-caps=-all --ambient-caps=-all --bounding-set=-all --';
const NINE_P = 'trans=virtio,version=9p2000.L,msize=262144';

export interface GuestScriptInput {
  readonly plan: GuestPlan;
  /** Tags of the top-level system directories (`usr` -> tag) and of the read-only binds (path -> tag). */
  readonly systemTags: ReadonlyMap<string, string>;
  readonly bindTags: ReadonlyMap<string, string>;
  /** Tags of the launch's mounts (path -> tag). */
  readonly mountTags: ReadonlyMap<string, string>;
  readonly env: Readonly<Record<string, string>>;
  /** Random per guest: the runner cannot forge the host's markers without it. */
  readonly nonce: string;
}

/**
 * The launch file: sourced by the initramfs's init (busybox sh, pid 1), it assembles the guest's
 * root (the host's system directories read-only under a tmpfs overlay, the runner root read-write
 * at its host path, private /tmp, /dev, /proc), starts the forwarder to the runner socket, runs
 * the runner in a chroot without capabilities and with exactly the launch's environment, relays
 * SIGTERM to it, prints its exit status and powers the guest off.
 */
export function guestScript(input: GuestScriptInput): string {
  const { plan, nonce } = input;
  const at = (path: string) => q(`/newroot${path}`);
  const lines = [
    'rm -f /run/guest.sh',
    `svc_fail() { echo "svc guest: $*"; echo ${EXIT_MARKER}:${nonce}:70; sync; reboot -f; }`,
    'mkdir -p /newroot /lower /scratch',
    'mount -t tmpfs -o mode=0755 svc-root /newroot',
    'mount -t tmpfs -o mode=0700 svc-scratch /scratch',
  ];
  for (const entry of plan.topLevel) {
    if (entry.kind === 'symlink') {
      lines.push(`ln -s ${q(entry.target)} ${at(`/${entry.name}`)}`);
      continue;
    }
    const tag = input.systemTags.get(entry.name);
    if (tag === undefined) continue;
    const lower = `/lower/${entry.name}`;
    lines.push(
      `mkdir -p ${lower} /scratch/upper/${entry.name} /scratch/work/${entry.name} ${at(`/${entry.name}`)}`,
      `mount -t 9p -o ${NINE_P},ro,cache=loose ${tag} ${lower} || svc_fail "cannot mount the host's /${entry.name}"`,
      `mount -t overlay -o lowerdir=${lower},upperdir=/scratch/upper/${entry.name},workdir=/scratch/work/${entry.name} svc-${entry.name} ${at(`/${entry.name}`)} || svc_fail "cannot overlay /${entry.name}"`,
    );
  }
  lines.push(
    ...ETC_REMOVED.map((file) => `rm -f ${at(`/etc/${file}`)}`),
    `rm -f ${at('/etc/ssh')}/ssh_host_*_key`,
    `printf '%s' ${q(plan.hosts)} > ${at('/etc/hosts')}`,
    `printf '%s\\n' ${q(plan.guestId)} > ${at('/etc/hostname')}`,
    `rm -f ${at('/etc/resolv.conf')}; printf '%s' ${q(plan.network ? 'nameserver 10.0.2.3\n' : '')} > ${at('/etc/resolv.conf')}`,
    `hostname ${q(plan.guestId)}`,
    `mkdir -p ${['/tmp', '/var/tmp', '/run', '/root', '/home', '/dev', '/proc', '/sys'].map(at).join(' ')}`,
    `chmod 1777 ${at('/var/tmp')}`,
    `mount -t tmpfs -o mode=1777,nosuid,nodev svc-tmp ${at('/tmp')}`,
    `mount -t tmpfs -o mode=0755,nosuid,nodev svc-run ${at('/run')}`,
    `mount -t devtmpfs devtmpfs ${at('/dev')}`,
    `mkdir -p ${at('/dev/pts')} ${at('/dev/shm')}`,
    `mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts ${at('/dev/pts')}`,
    `mount -t tmpfs -o mode=1777,nosuid,nodev svc-shm ${at('/dev/shm')}`,
    `ln -sfn /proc/self/fd ${at('/dev/fd')}; ln -sf /proc/self/fd/0 ${at('/dev/stdin')}; ln -sf /proc/self/fd/1 ${at('/dev/stdout')}; ln -sf /proc/self/fd/2 ${at('/dev/stderr')}`,
    `mount -t proc -o nosuid,nodev,noexec proc ${at('/proc')}`,
    `mount -t sysfs -o ro,nosuid,nodev,noexec sysfs ${at('/sys')}`,
  );
  for (const dir of plan.readOnlyBinds) {
    const tag = input.bindTags.get(dir);
    if (tag === undefined) continue;
    lines.push(`mkdir -p ${at(dir)}`, `mount -t 9p -o ${NINE_P},ro,cache=loose ${tag} ${at(dir)} || svc_fail ${q(`cannot mount ${dir}`)}`);
  }
  for (const path of plan.masks) lines.push(`mount -t tmpfs -o mode=0755,nosuid,nodev svc-mask ${at(path)}`);
  lines.push(
    `mkdir -p ${at(plan.runnerRoot)} && mount --move /run/launch ${at(plan.runnerRoot)} || svc_fail 'cannot mount the runner root'`,
  );
  for (const mount of plan.mounts) {
    const tag = input.mountTags.get(mount.path);
    if (tag === undefined) continue;
    lines.push(`mkdir -p ${at(mount.path)}`, `mount -t 9p -o ${NINE_P},${mount.writable ? 'rw' : 'ro,cache=loose'} ${tag} ${at(mount.path)} || svc_fail ${q(`cannot mount ${mount.path}`)}`);
  }
  lines.push(
    'ip link set lo up',
    // The NIC is there whatever the network setting: the runner-socket forward is on it.
    'ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2 || svc_fail "no network device"',
  );
  if (plan.forward !== undefined) {
    const port = plan.forward.port;
    const listening = `:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A`;
    lines.push(
      `chroot /newroot /usr/bin/socat TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork TCP:${FORWARD_ADDRESS}:${port} < /dev/null &`,
      'svc_tries=0',
      `until grep -q ${q(listening)} /proc/net/tcp; do`,
      '  svc_tries=$((svc_tries + 1)); [ "$svc_tries" -lt 500 ] || svc_fail "the forwarder to the runner socket did not start (is socat in /usr/bin?)"',
      '  sleep 0.01',
      'done',
    );
  }
  const envWords = Object.entries(input.env).map(([name, value]) => q(`${name}=${value}`));
  lines.push(
    // Jobs get the usual umask, whatever svc serve's own (077) was.
    'umask 022',
    `(while read -r svc_line; do [ "$svc_line" = ${STOP_LINE} ] && kill -TERM 1; done) < /dev/console &`,
    'svc_runner=',
    `trap 'if [ -n "$svc_runner" ]; then kill -TERM "$svc_runner" 2>/dev/null; fi' TERM INT HUP`,
    `echo ${READY_MARKER}:${nonce}`,
    `chroot /newroot /usr/bin/env -i -C ${q(plan.runnerRoot)} ${envWords.join(' ')} /usr/bin/setpriv ${DROP_PRIVILEGES} ${[plan.command, ...plan.args].map(q).join(' ')} < /dev/null &`,
    'svc_runner=$!',
    'while :; do',
    '  wait "$svc_runner"; svc_status=$?',
    '  kill -0 "$svc_runner" 2>/dev/null || break',
    'done',
    `echo ${EXIT_MARKER}:${nonce}:$svc_status`,
    'sync',
    'reboot -f',
  );
  return `${lines.join('\n')}\n`;
}
