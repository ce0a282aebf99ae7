import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed svc package: its root (holding package.json, plugins.toml, versions.toml) and version. */
export interface PackageInfo {
  readonly root: string;
  readonly version: string;
}

let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc') {
        cached = { root: dir, version: pkg.version ?? '0.0.0' };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the svc package root (package.json named "svc")');
    dir = parent;
  }
}
