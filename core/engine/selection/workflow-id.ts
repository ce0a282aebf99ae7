import { createHash } from 'node:crypto';

/**
 * A workflow's stable id (spec: "Stable hashed identifier, not a numeric forge database ID"):
 * a hash of the repository and the file's path, so the same file keeps its id across commits,
 * nodes and reinstalls.
 */
export function workflowId(repository: string, path: string): string {
  return `wf_${createHash('sha256').update(`${repository.toLowerCase()}\0${path}`).digest('hex').slice(0, 20)}`;
}
