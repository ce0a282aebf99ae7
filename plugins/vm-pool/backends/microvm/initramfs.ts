import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCpio, type CpioEntry } from './cpio-writer.js';
import { GUEST_INIT } from './guest-init.js';
import type { MicrovmHost } from './host-requirements.js';
import { resolveModules } from './kernel-modules.js';

/**
 * The guest's initramfs: static busybox, the modules the kernel needs (loaded in order by the
 * init) and the init. Nothing in it is per guest, so it is built once per kernel and busybox and
 * cached as `<cacheDir>/initramfs-<kernel version>-<hash>.cpio`; returns its path.
 */
export function ensureInitramfs(host: MicrovmHost, cacheDir: string): string {
  const modules = host.modulesDir === undefined ? [] : resolveModules(host.modulesDir);
  const busybox = statSync(host.busybox);
  const key = createHash('sha256')
    .update(JSON.stringify({ init: GUEST_INIT, modules: modules.map((module) => module.path), busybox: [host.busybox, busybox.size, busybox.mtimeMs] }))
    .digest('hex')
    .slice(0, 12);
  const path = join(cacheDir, `initramfs-${host.kernelVersion}-${key}.cpio`);
  try {
    statSync(path);
    return path;
  } catch {
    // not built yet
  }
  const entries: CpioEntry[] = [
    ...['bin', 'dev', 'proc', 'sys', 'run', 'mnt', 'lib', 'lib/modules'].map((dir): CpioEntry => ({ kind: 'dir', path: dir })),
    // The kernel opens /dev/console for the init before anything is mounted.
    { kind: 'char', path: 'dev/console', major: 5, minor: 1 },
    { kind: 'file', path: 'bin/busybox', data: readFileSync(host.busybox), mode: 0o755 },
    ...modules.map((module): CpioEntry => ({ kind: 'file', path: `lib/modules/${module.name}.ko`, data: readFileSync(join(host.modulesDir ?? '', module.path)) })),
    { kind: 'file', path: 'lib/modules/order', data: Buffer.from(modules.map((module) => `${module.name}\n`).join('')) },
    { kind: 'file', path: 'init', data: Buffer.from(GUEST_INIT), mode: 0o755 },
  ];
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  // Written aside and renamed: a concurrent launch never reads a half-written archive.
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  writeFileSync(partial, writeCpio(entries), { mode: 0o600 });
  renameSync(partial, path);
  return path;
}
