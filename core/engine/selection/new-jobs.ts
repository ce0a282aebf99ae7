import { environmentUrlText, type PlannedJob } from '../../workflow/index.js';
import type { Json } from '../model/records.js';
import type { NewJob } from '../runs/create-run.js';

/**
 * The engine's job rows for one planned job: one per instance (matrix combination). A job
 * whose fields wait for its needs becomes stand-ins marked `deferred`, expanded later.
 */
export function toNewJobs(job: PlannedJob, waitsFor: readonly string[]): NewJob[] {
  const deferred = job.deferred.length > 0 || job.instances.some((instance) => instance.deferred.length > 0);
  return job.instances.map((instance) => ({
    jobKey: job.path,
    instanceId: instance.id,
    name: instance.name,
    needs: waitsFor,
    matrix: (instance.matrix ?? null) as Json,
    strategy: job.matrix ? (instance.strategy as unknown as Json) : null,
    runsOn: instance.runsOn?.labels ?? [],
    ifCondition: job.if,
    continueOnError: instance.continueOnError,
    timeoutMinutes: instance.timeoutMinutes,
    // GitHub compares group names without regard to case: the engine keys on the lowered name.
    concurrency: instance.concurrency ? { group: instance.concurrency.key, cancelInProgress: instance.concurrency.cancelInProgress, queue: instance.concurrency.queue } : null,
    environment: instance.environment ? { name: instance.environment.name, url: environmentUrlText(instance.environment) } : null,
    ...(deferred ? { deferred: true } : {}),
  }));
}
