import { fileURLToPath } from 'node:url';
import { bundleActionScript } from '../support/action-bundle.js';

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
  const script = await bundleActionScript(ENTRY);
  return { [`${dir}/action.yml`]: ACTION_YML, [`${dir}/index.mjs`]: script };
}
