import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UnavailableError } from '../../../../core/kernel/index.js';

/**
 * The drivers a guest needs: virtio over MMIO (the microvm machine) and PCI, 9p over virtio for
 * the shared host directories, overlayfs for the writable layer, virtio-net for the network.
 */
export const GUEST_MODULES = ['virtio_mmio', 'virtio_pci', '9pnet_virtio', '9p', 'overlay', 'virtio_net'] as const;

/** A module file under the modules directory, in load order (dependencies first). */
export interface ModuleFile {
  readonly name: string;
  /** Path relative to the modules directory (`kernel/fs/9p/9p.ko`). */
  readonly path: string;
}

function moduleName(path: string): string {
  return basename(path).replace(/\.ko(\.(xz|gz|zst))?$/, '').replaceAll('-', '_');
}

/**
 * The module files to load for `wanted`, dependencies first, read from `modules.dep`; modules
 * listed in `modules.builtin` are skipped (nothing to load). Throws naming what is missing.
 */
export function resolveModules(modulesDir: string, wanted: readonly string[] = GUEST_MODULES): ModuleFile[] {
  const builtinFile = join(modulesDir, 'modules.builtin');
  const builtin = new Set(existsSync(builtinFile) ? readFileSync(builtinFile, 'utf8').split('\n').filter((line) => line !== '').map(moduleName) : []);
  const deps = new Map<string, { path: string; deps: string[] }>();
  for (const line of readFileSync(join(modulesDir, 'modules.dep'), 'utf8').split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const path = line.slice(0, colon);
    deps.set(moduleName(path), { path, deps: line.slice(colon + 1).trim().split(/\s+/).filter((dep) => dep !== '').map(moduleName) });
  }
  const ordered: ModuleFile[] = [];
  const seen = new Set<string>();
  const visit = (name: string, chain: readonly string[]) => {
    if (seen.has(name) || builtin.has(name)) return;
    seen.add(name);
    const entry = deps.get(name);
    if (entry === undefined) throw new UnavailableError(`the guest kernel has no ${name} module in ${modulesDir} (needed for ${chain.join(' -> ')}) and does not build it in`);
    for (const dep of entry.deps) visit(dep, [...chain, dep]);
    ordered.push({ name, path: entry.path });
  };
  for (const name of wanted) visit(name, [name]);
  return ordered;
}
