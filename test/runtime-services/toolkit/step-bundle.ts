/**
 * toolkit-step.mjs with the toolkit clients bundled into one file, as a JavaScript action ships
 * them (actions/cache and actions/upload-artifact are ncc bundles): the same unmodified library
 * code, but a step process loads one file instead of several hundred modules, about half a second
 * of CPU less per step. Built once per machine with esbuild into the temp dir, named by a hash of
 * the step script and the installed toolkit versions, so a changed script or an upgrade rebuilds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SCRIPT = fileURLToPath(new URL('./toolkit-step.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['@actions/cache', '@actions/artifact', '@actions/core'];

let built: Promise<string> | undefined;

/** The bundled step script's path (built on first use). */
export function toolkitStepBundle(): Promise<string> {
  built ??= bundle();
  return built;
}

async function bundle(): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(SCRIPT));
  for (const name of PACKAGES) hash.update(readFileSync(join(ROOT, 'node_modules', name, 'package.json')));
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
  const uid = userInfo().uid;
  let out = join(tmpdir(), `svc-test-toolkit-step-${uid}-${hash.digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(out)) {
    const stats = statSync(out);
    // Only a bundle this user wrote and nobody else can change is run; else a private one.
    if (stats.uid === uid && (stats.mode & 0o022) === 0) return out;
    out = join(mkdtempSync(join(tmpdir(), 'svc-test-toolkit-step-')), 'toolkit-step.mjs');
  }
  const part = `${out}.${randomBytes(4).toString('hex')}.mjs`;
  try {
    await build({
      absWorkingDir: ROOT,
      entryPoints: [SCRIPT],
      outfile: part,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
      banner: { js: "import { createRequire as __stepCreateRequire } from 'node:module'; const require = __stepCreateRequire(import.meta.url);" },
      logLevel: 'error',
    });
    renameSync(part, out);
  } finally {
    rmSync(part, { force: true });
  }
  return out;
}
