import { fileURLToPath } from 'node:url';
import { bundleActionScript } from '../support/action-bundle.js';

const ENTRY = fileURLToPath(new URL('./fixtures/toolkit-action/main.mjs', import.meta.url));

const ACTION_YML = `name: toolkit
description: One @actions/cache or @actions/artifact operation (fixtures/toolkit-action/main.mjs).
inputs:
  op:
    required: true
  path:
    required: true
  name:
    required: true
runs:
  using: node20
  main: index.mjs
`;

/**
 * The files of an action at `dir` of its repository ('' for the root) saving or restoring a cache and
 * uploading or downloading an artifact with the real toolkit clients, bundled into one ESM file
 * as actions ship, so the job needs nothing installed.
 */
export async function toolkitAction(dir: string): Promise<Record<string, string>> {
  const script = await bundleActionScript(ENTRY);
  const at = (name: string) => (dir === '' ? name : `${dir}/${name}`);
  return { [at('action.yml')]: ACTION_YML, [at('index.mjs')]: script };
}
