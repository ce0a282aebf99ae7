/**
 * What svc-runner needs of the installed svc package: its version (package.json) and the pins of
 * versions.toml it runs with. Read here rather than through core/kernel's readVersions and
 * packageInfo: the kernel's index loads the server with them (fastify, pino, awilix), ~7 MB of
 * an idle listener's memory (npm run bench:runner). The lookup is the kernel's: the nearest
 * package.json named "svc" above this module, source or bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

export interface RunnerVersions {
  /** The svc package's version. */
  readonly packageVersion: string;
  /** `runner_version`: the actions/runner release whose protocol svc-runner speaks. */
  readonly runnerVersion: string;
  readonly node20Version: string;
  readonly node24Version: string;
}

let cached: RunnerVersions | undefined;

export function readRunnerVersions(): RunnerVersions {
  if (cached !== undefined) return cached;
  const root = packageRoot();
  const data = parse(readFileSync(join(root.dir, 'versions.toml'), 'utf8')) as Record<string, unknown>;
  cached = { packageVersion: root.version, runnerVersion: text(data, 'runner_version'), node20Version: text(data, 'node20_version'), node24Version: text(data, 'node24_version') };
  return cached;
}

function text(data: Record<string, unknown>, key: string): string {
  const value = data[key];
  if (typeof value !== 'string' || value === '') throw new Error(`versions.toml: '${key}' must be a non-empty string`);
  return value;
}

function packageRoot(): { readonly dir: string; readonly version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc') return { dir, version: pkg.version ?? '0.0.0' };
    }
    if (dirname(dir) === dir) throw new Error('cannot find the svc package root (package.json named "svc")');
  }
}
