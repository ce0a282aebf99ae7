import { constants, accessSync, closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findTool } from '../namespace/host-tools.js';

/** How the guest's CPU is provided: KVM (hardware) or TCG (qemu's emulation; slow, for hosts without KVM). */
export type MicrovmAccel = 'kvm' | 'tcg';

export interface MicrovmHostOptions {
  /** /dev/kvm (tests point it elsewhere). */
  readonly device?: string;
  /** SVC_POOL_MICROVM_QEMU: the qemu-system binary (default: found on the PATH). */
  readonly qemu?: string | undefined;
  /** SVC_POOL_MICROVM_KERNEL: the guest kernel image (default: the newest /boot/vmlinuz-*). */
  readonly kernel?: string | undefined;
  /** SVC_POOL_MICROVM_ACCEL: `kvm` (default) or `tcg`. */
  readonly accel?: MicrovmAccel | undefined;
  /** Where kernels and modules are looked for (tests). */
  readonly bootDir?: string;
  readonly modulesRoot?: string;
}

/** Everything a guest needs from the host, found and checked. */
export interface MicrovmHost {
  readonly accel: MicrovmAccel;
  readonly qemu: string;
  readonly kernel: string;
  readonly kernelVersion: string;
  /** Undefined when the kernel builds its drivers in (an explicit kernel without a modules directory). */
  readonly modulesDir: string | undefined;
  readonly busybox: string;
  readonly socat: string;
  /** For outbound network (the guest's qemu runs in its own network namespace). */
  readonly unshare: string | undefined;
  readonly slirp4netns: string | undefined;
}

export type HostCheck = { readonly ok: true; readonly host: MicrovmHost } | { readonly ok: false; readonly reason: string };

export const KVM_DEVICE = '/dev/kvm';

const QEMU_BY_ARCH: Readonly<Record<string, { readonly binary: string; readonly pkg: string }>> = {
  x64: { binary: 'qemu-system-x86_64', pkg: 'qemu-system-x86' },
  arm64: { binary: 'qemu-system-aarch64', pkg: 'qemu-system-arm' },
};

/** Whether this process can open /dev/kvm for reading and writing. */
export function kvmUsable(device: string = KVM_DEVICE): boolean {
  try {
    accessSync(device, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * PVM (kvm_pvm, nested virtualization without VMX, as on some cloud sandboxes) provides /dev/kvm
 * but runs only guest kernels built for it (CONFIG_PVM_GUEST): a stock kernel hangs at boot.
 */
function pvmOnly(): boolean {
  return existsSync('/sys/module/kvm_pvm') && !existsSync('/sys/module/kvm_intel') && !existsSync('/sys/module/kvm_amd');
}

function kernelConfig(kernel: string, version: string): string | undefined {
  for (const path of [join(dirname(kernel), `config-${version}`), `/boot/config-${version}`]) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      // next
    }
  }
  return undefined;
}

/** The version a Linux x86 bzImage names in its header ("6.1.0-56-amd64"), else from the file name. */
export function kernelVersionOf(kernel: string): string | undefined {
  try {
    const fd = openSync(kernel, 'r');
    try {
      const header = Buffer.alloc(0x4000);
      readSync(fd, header, 0, header.length, 0);
      if (header.toString('latin1', 0x202, 0x206) === 'HdrS') {
        const offset = header.readUInt16LE(0x20e) + 0x200;
        const text = header.toString('latin1', offset, Math.min(offset + 200, header.length));
        const version = text.slice(0, text.indexOf('\0')).split(' ')[0];
        if (version !== undefined && version !== '') return version;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const name = basename(kernel);
  return name.startsWith('vmlinuz-') ? name.slice('vmlinuz-'.length) : undefined;
}

/** The newest `vmlinuz-*` in `bootDir` (by version order of the names). */
function newestKernel(bootDir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(bootDir).filter((name) => name.startsWith('vmlinuz-'));
  } catch {
    return undefined;
  }
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const newest = names.at(-1);
  return newest === undefined ? undefined : join(bootDir, newest);
}

/** Whether an ELF binary has no program interpreter (statically linked); undefined if not ELF. */
function isStatic(path: string): boolean | undefined {
  const data = readFileSync(path);
  if (data.length < 64 || data.toString('latin1', 0, 4) !== '\x7fELF') return undefined;
  const is64 = data[4] === 2;
  const phoff = is64 ? Number(data.readBigUInt64LE(0x20)) : data.readUInt32LE(0x1c);
  const phentsize = data.readUInt16LE(is64 ? 0x36 : 0x2a);
  const phnum = data.readUInt16LE(is64 ? 0x38 : 0x2c);
  for (let i = 0; i < phnum; i += 1) {
    if (data.readUInt32LE(phoff + i * phentsize) === 3) return false; // PT_INTERP
  }
  return true;
}

/**
 * Finds and checks what microvm guests need on this host. Every failure is one sentence saying
 * what to install or set.
 */
export function checkMicrovmHost(options: MicrovmHostOptions = {}): HostCheck {
  const fail = (reason: string): HostCheck => ({ ok: false, reason });
  if (process.platform !== 'linux') return fail(`microvm guests need Linux (this host is ${process.platform})`);
  const flavour = QEMU_BY_ARCH[process.arch];
  if (flavour === undefined) return fail(`microvm guests support x86_64 and arm64 hosts (this host is ${process.arch})`);
  const accel = options.accel ?? 'kvm';
  const device = options.device ?? KVM_DEVICE;
  if (accel === 'kvm' && !kvmUsable(device)) {
    return fail(`${device} is missing or not accessible: enable KVM (hardware virtualization) and add the user running svc to the kvm group, or set SVC_POOL_MICROVM_ACCEL=tcg for slow emulated guests`);
  }
  const qemu = findTool(flavour.binary, options.qemu);
  if (qemu === undefined) {
    return fail(options.qemu === undefined
      ? `microvm guests need ${flavour.binary}: install the Debian package ${flavour.pkg} (apt-get install --no-install-recommends ${flavour.pkg})`
      : `SVC_POOL_MICROVM_QEMU=${options.qemu} is not an executable file`);
  }
  const kernel = options.kernel ?? newestKernel(options.bootDir ?? '/boot');
  if (kernel === undefined || !existsSync(kernel)) {
    return fail(options.kernel === undefined
      ? 'microvm guests need a Linux kernel image and no /boot/vmlinuz-* was found: install the Debian package linux-image-amd64 (or linux-image-arm64), or set SVC_POOL_MICROVM_KERNEL'
      : `SVC_POOL_MICROVM_KERNEL=${options.kernel} does not exist`);
  }
  const kernelVersion = kernelVersionOf(kernel);
  if (kernelVersion === undefined) return fail(`cannot tell the version of the guest kernel ${kernel}: set SVC_POOL_MICROVM_KERNEL to a vmlinuz-<version> image`);
  const modulesDir = join(options.modulesRoot ?? '/lib/modules', kernelVersion);
  const hasModules = existsSync(join(modulesDir, 'modules.dep'));
  if (!hasModules && options.kernel === undefined) {
    return fail(`the guest kernel ${kernel} has no modules directory ${modulesDir}: reinstall its package (apt-get install --reinstall linux-image-${kernelVersion})`);
  }
  if (accel === 'kvm' && pvmOnly()) {
    const config = kernelConfig(kernel, kernelVersion);
    if (config === undefined || !/^CONFIG_PVM_GUEST=y$/m.test(config)) {
      return fail(`this host's KVM is PVM (kvm_pvm: nested virtualization without VMX), which boots only kernels built with CONFIG_PVM_GUEST, and ${kernel} is not one: set SVC_POOL_MICROVM_KERNEL to such a kernel, or SVC_POOL_MICROVM_ACCEL=tcg for slow emulated guests`);
    }
  }
  const busybox = findTool('busybox');
  if (busybox === undefined) return fail('microvm guests need a static busybox for their init: install the Debian package busybox-static (apt-get install busybox-static)');
  if (isStatic(realpathSync(busybox)) !== true) return fail(`${busybox} is not a static binary: install the Debian package busybox-static (apt-get install busybox-static)`);
  const socat = findTool('socat');
  if (socat === undefined) return fail('microvm guests reach the runner socket through socat: install the Debian package socat (apt-get install socat)');
  return {
    ok: true,
    host: { accel, qemu, kernel, kernelVersion, modulesDir: hasModules ? modulesDir : undefined, busybox: realpathSync(busybox), socat, unshare: findTool('unshare'), slirp4netns: findTool('slirp4netns') },
  };
}
