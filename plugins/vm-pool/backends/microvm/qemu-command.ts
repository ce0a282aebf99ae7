import { FORWARD_ADDRESS, type Share } from './guest-script.js';
import type { MicrovmHost } from './host-requirements.js';

export interface QemuCommandInput {
  readonly host: MicrovmHost;
  /** The image to boot (the host's kernel, or its decompressed PVH form). */
  readonly kernel: string;
  readonly initramfs: string;
  readonly memoryMiB: number;
  readonly cpus: number;
  readonly shares: readonly Share[];
  readonly network: boolean;
  /** The runner socket and the port the guest dials on FORWARD_ADDRESS for it. */
  readonly forward: { readonly socket: string; readonly port: number } | undefined;
}

/** qemu option values double their commas. */
function value(text: string): string {
  return text.replaceAll(',', ',,');
}

/** A single-quoted word for the command line qemu's user network splits (glib shell rules). */
function word(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The qemu command line of a guest: q35 (its PCI devices work with KVM and with TCG; the
 * `microvm` machine does not boot under TCG, it hangs calibrating the TSC), the kernel and
 * initramfs booted directly, the console on qemu's stdin/stdout, the shares over virtio-9p, and
 * user-mode networking that is `restrict=on` without network: the guest then reaches nothing but
 * the runner-socket forward (guestfwd runs socat per connection, its log off: its stderr is the connection).
 */
export function qemuCommand(input: QemuCommandInput): { readonly program: string; readonly args: string[] } {
  const { host } = input;
  const arm = process.arch === 'arm64';
  const kvm = host.accel === 'kvm';
  const machine = arm ? `virt,gic-version=${kvm ? 'host' : 'max'}` : 'q35';
  const console = arm ? 'ttyAMA0' : 'ttyS0';
  const args = [
    '-machine', machine,
    '-accel', kvm ? 'kvm' : 'tcg,thread=multi',
    '-cpu', kvm ? 'host' : 'max',
    '-smp', String(input.cpus),
    '-m', `${input.memoryMiB}M`,
    '-nodefaults', '-no-user-config', '-display', 'none', '-no-reboot',
    '-kernel', input.kernel,
    '-initrd', input.initramfs,
    '-append', `console=${console} quiet loglevel=3 panic=-1 edd=off rdinit=/init`,
    '-chardev', 'stdio,id=console,signal=off',
    '-serial', 'chardev:console',
  ];
  input.shares.forEach((share, index) => {
    args.push(
      '-fsdev', `local,id=fs${index},path=${value(share.hostPath)},security_model=none${share.readOnly ? ',readonly=on' : ''}`,
      '-device', `virtio-9p-pci,fsdev=fs${index},mount_tag=${share.tag}`,
    );
  });
  const forward = input.forward === undefined ? '' : `,guestfwd=tcp:${FORWARD_ADDRESS}:${input.forward.port}-cmd:${value(`${word(host.socat)} -lf /dev/null STDIO ${word(`UNIX-CONNECT:${input.forward.socket}`)}`)}`;
  args.push('-netdev', `user,id=net0${input.network ? '' : ',restrict=on'}${forward}`, '-device', 'virtio-net-pci,netdev=net0');
  return { program: host.qemu, args };
}
