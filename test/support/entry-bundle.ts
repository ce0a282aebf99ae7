/**
 * A TypeScript entry a test spawns as a process (a worker fixture) bundled with esbuild, the way
 * the production build bundles svc-runner: the child then starts without tsx and without loading
 * the runner's module tree through it (about a second of CPU less per process). Built once per
 * test process and entry, into the suite's bundle directory (SVC_TEST_BUNDLE, removed by
 * scripts/test.mjs) or else `dist-test-entries-<pid>/` in the package (removed at exit): inside
 * the package, as dist/ is, so code that finds the package from its own location still does.
 */
import { rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { PROJECT_ROOT } from './spawn-cli.js';

const built = new Map<string, string>();
let ownDir: string | undefined;

function outDir(): string {
  const bundle = process.env.SVC_TEST_BUNDLE;
  if (bundle !== undefined && bundle !== '') return join(resolve(PROJECT_ROOT, bundle), 'test-entries', String(process.pid));
  if (ownDir === undefined) {
    const dir = join(PROJECT_ROOT, `dist-test-entries-${process.pid}`);
    ownDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return ownDir;
}

/** The bundled entry's path: what `node <path>` runs in place of `node --import tsx <entry>`. */
export function entryBundle(entry: string): string {
  let path = built.get(entry);
  if (path === undefined) {
    path = join(outDir(), `${built.size}-${basename(entry).replace(/\.ts$/, '.mjs')}`);
    buildSync({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: [entry],
      outfile: path,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['better-sqlite3', 'pg-native'],
      define: { __SVC_BUNDLED__: 'true' },
      // CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
      banner: { js: "import { createRequire as __entryCreateRequire } from 'node:module'; const require = __entryCreateRequire(import.meta.url);" },
      logLevel: 'error',
    });
    built.set(entry, path);
  }
  return path;
}
