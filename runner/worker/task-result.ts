/**
 * TaskResult arithmetic as the runner does it (TaskResultUtil): merging keeps the worse result
 * once the current one is worse than `succeededWithIssues`; a result as an action result
 * (`steps.<id>.outcome`, `job.status`): success, failure, cancelled, skipped.
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import type { JobStatus } from '../../core/workflow/index.js';

const ORDER: readonly TaskResultName[] = ['succeeded', 'succeededWithIssues', 'failed', 'canceled', 'skipped', 'abandoned'];

export function mergeTaskResults(current: TaskResultName | undefined, coming: TaskResultName): TaskResultName {
  if (current === undefined) return coming;
  const now = ORDER.indexOf(current);
  if (now > ORDER.indexOf('succeededWithIssues')) return current;
  return ORDER.indexOf(coming) >= now ? coming : current;
}

export type ActionResult = 'success' | 'failure' | 'cancelled' | 'skipped';

export function actionResult(result: TaskResultName | undefined): ActionResult {
  switch (result) {
    case 'failed':
    case 'abandoned':
      return 'failure';
    case 'canceled':
      return 'cancelled';
    case 'skipped':
      return 'skipped';
    default:
      return 'success';
  }
}

/** `job.status` and the step status functions' view of the job. */
export function jobStatusOf(result: TaskResultName | undefined): JobStatus {
  const action = actionResult(result);
  return action === 'skipped' ? 'success' : action;
}
