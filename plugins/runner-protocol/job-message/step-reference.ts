/**
 * A step's `reference`: what the runner runs for it (§3.4 of the protocol notes).
 *
 * - `run:` → `{type: script}`;
 * - `uses: docker://image` → `{type: containerRegistry, image}` (prefix stripped, any case);
 * - `uses: ./path` → `{type: repository, repositoryType: self, path: "./path"}` (as written);
 * - `uses: $/path` → `{type: repository, repositoryType: selfRepository, path}` (runner 2.336+
 *   resolves it against `job.workflow_repository` at `job.workflow_sha`);
 * - `uses: owner/repo[/sub/dir]@ref` → `{type: repository, name: owner/repo, ref,
 *   repositoryType: GitHub}`, with `path: sub/dir` when there is one.
 */
import type { JsonObject } from '../../../core/protocol/index.js';

const DOCKER_PREFIX = 'docker://';

export const SCRIPT_REFERENCE: JsonObject = { type: 'script' };

export function actionReference(uses: string): JsonObject {
  if (uses.toLowerCase().startsWith(DOCKER_PREFIX)) return { type: 'containerRegistry', image: uses.slice(DOCKER_PREFIX.length) };
  if (uses.startsWith('./') || uses === '.') return { type: 'repository', repositoryType: 'self', path: uses };
  if (uses.startsWith('$/')) return { type: 'repository', repositoryType: 'selfRepository', path: uses.slice(2) };
  const at = uses.lastIndexOf('@');
  const [owner, repo, ...rest] = (at < 0 ? uses : uses.slice(0, at)).split('/');
  const ref = at < 0 ? '' : uses.slice(at + 1);
  if (owner === undefined || owner === '' || repo === undefined || repo === '' || ref === '') {
    // The parser refuses these already; a message must never carry a reference the runner cannot resolve.
    throw new TypeError(`'${uses}' is not a valid action reference (owner/repo[/path]@ref, ./path or docker://image)`);
  }
  const path = rest.join('/');
  return { type: 'repository', name: `${owner}/${repo}`, ref, ...(path === '' ? {} : { path }), repositoryType: 'GitHub' };
}
