import { build } from 'esbuild';
import { PROJECT_ROOT } from './spawn-cli.js';

/**
 * A fixture action's entry and its dependencies (the real `@actions/*` clients) bundled into one
 * minified ESM file, as actions ship, so a job needs nothing installed.
 */
export async function bundleActionScript(entry: string): Promise<string> {
  const bundled = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    // CommonJS dependencies call require() for Node built-ins.
    banner: { js: "import { createRequire as __actionRequire } from 'node:module'; const require = __actionRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const [output] = bundled.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote no bundle for ${entry}`);
  return output.text;
}
