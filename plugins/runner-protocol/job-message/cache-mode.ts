/**
 * A job's cache mode (`actions_cache_mode` → `ACTIONS_CACHE_MODE`, runner 2.336+): `write`,
 * except for triggers an outsider can fire that run in the default branch's cache scope, which
 * get `read` (GitHub's read-only cache for untrusted triggers, June 2026: a fork's
 * `pull_request_target`, an `issue_comment`, a `workflow_run` cascade cannot poison the caches
 * the default branch restores). The runner prints and exports the mode and `@actions/cache`
 * skips what it forbids; the cache service enforces the same mode server-side. svc does not read
 * a workflow `cache-mode:` key yet (the parser does not know it).
 */
import type { CacheMode } from '../../../core/ports/index.js';

/** Events that run on the default branch and that anyone who can open an issue or a fork can trigger. */
const LOW_TRUST_EVENTS: ReadonlySet<string> = new Set([
  'pull_request_target',
  'issue_comment',
  'issues',
  'discussion',
  'discussion_comment',
  'fork',
  'watch',
  'workflow_run',
]);

export function cacheModeFor(eventName: string): CacheMode {
  return LOW_TRUST_EVENTS.has(eventName) ? 'read' : 'write';
}
