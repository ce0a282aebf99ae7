import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const ENTRY = fileURLToPath(new URL('./fixtures/upload-artifact/main.mjs', import.meta.url));

const ACTION_YML = `name: upload artifact
description: The real @actions/artifact uploading a directory, printing the artifact URL as upload-artifact does.
inputs:
  name:
    required: true
  path:
    required: true
outputs:
  artifact-id: {}
  artifact-url: {}
runs:
  using: node20
  main: index.mjs
`;

/**
 * The files of a local action at `dir` (`uses: ./<dir>`) that uploads an artifact with the real
 * `@actions/artifact`: the fixture and its dependencies in one ESM file, as actions ship (about
 * 2 MB minified), so the job needs nothing installed.
 */
export async function uploadArtifactAction(dir: string): Promise<Record<string, string>> {
  const bundled = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    // Its CommonJS dependencies call require() for Node built-ins.
    banner: { js: "import { createRequire as __actionRequire } from 'node:module'; const require = __actionRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const [output] = bundled.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no bundle for the upload action');
  return { [`${dir}/action.yml`]: ACTION_YML, [`${dir}/index.mjs`]: output.text };
}
