import type { Completion, JobRecord } from '../../../core/engine/index.js';
import { TASK_RESULTS, type TaskResultName } from '../../../core/protocol/index.js';

// The engine's runner id for a registered runner (the job's lease owner); job-token liveness needs it too.
export { engineRunnerId } from '../auth/index.js';

/** A TaskResult as the runner sends it (a camelCase name in any case, or its number) by name. */
export function taskResultName(value: TaskResultName | number | string): TaskResultName | undefined {
  if (typeof value === 'number') return TASK_RESULTS[value];
  const lower = value.toLowerCase();
  return TASK_RESULTS.find((name) => name.toLowerCase() === lower);
}

/**
 * What the engine records for a result the Listener finished a job with (§2.8). `succeededWithIssues`
 * is a success with warnings; `abandoned` is what the Listener reports when it lost the job (its
 * lock renewal stopped, or the Worker could not start), so the job failed.
 */
export function completionOf(result: TaskResultName): Completion {
  switch (result) {
    case 'succeeded':
    case 'succeededWithIssues':
      return { outcome: 'success' };
    case 'failed':
      return { outcome: 'failure' };
    case 'canceled':
      return { outcome: 'cancelled' };
    case 'skipped':
      return { outcome: 'skipped' };
    case 'abandoned':
      return { outcome: 'failure', reason: 'The runner abandoned the job: it lost its lock on the job or could not start its worker.' };
  }
}

/** The TaskResult of a finished job, as the runner reads a job request's `result`; undefined while it runs. */
export function resultOfJob(job: JobRecord): TaskResultName | undefined {
  switch (job.status) {
    case 'success':
      return 'succeeded';
    case 'failure':
      return 'failed';
    case 'cancelled':
      return 'canceled';
    case 'skipped':
      return 'skipped';
    default:
      return undefined;
  }
}
