/**
 * `uses:` of a reusable workflow job → what the loader is asked for. Local references (`./path`,
 * and `$/path`, the parser's self-repository form) stay in the caller's repository and ref; the
 * entry workflow's own repository is the loader's to know.
 */
import type { WorkflowRef } from '../types.js';

export function toWorkflowRef(uses: string, caller: WorkflowRef | undefined): WorkflowRef | undefined {
  if (uses.startsWith('./') || uses.startsWith('$/')) {
    const path = uses.slice(2);
    return {
      path,
      ...(caller?.repository === undefined ? {} : { repository: caller.repository }),
      ...(caller?.ref === undefined ? {} : { ref: caller.ref }),
    };
  }
  const at = uses.indexOf('@');
  if (at < 0) return undefined;
  const [owner, repository, ...path] = uses.slice(0, at).split('/').filter((segment) => segment !== '');
  const ref = uses.slice(at + 1);
  if (owner === undefined || repository === undefined || path.length === 0 || ref === '' || ref.includes('@')) return undefined;
  return { repository: `${owner}/${repository}`, path: path.join('/'), ref };
}

/** One spelling per referenced file: `owner/repo/path@ref`, or `./path` in the entry repository. */
export function workflowRefKey(ref: WorkflowRef): string {
  if (ref.repository === undefined) return `./${ref.path}`;
  return `${ref.repository}/${ref.path}@${ref.ref ?? ''}`;
}
