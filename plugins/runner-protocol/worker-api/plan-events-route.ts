/**
 * Plan events (§4.8): `POST …/plans/{planId}/events`. With `plan.version` ≥ 8 (ours is 12) the
 * Worker ends every job with `JobCompleted` — `{name, jobId, requestId, result, outputs:
 * {name: {value}}, actionsEnvironment, …}` — and the Listener sends the same with `failed` when
 * the Worker crashed. The result becomes the job's outcome (succeeded and succeededWithIssues →
 * success, failed and abandoned → failure, canceled → cancelled, skipped → skipped) and the
 * outputs its outputs (§4.10), which the engine hands to the jobs that need it.
 *
 * The job record's log is complete by then (the Worker drains its upload queue first): its
 * job-only lines are stored before the job completes (job-log.ts).
 *
 * Completing twice is harmless (the runner retries up to five times): a job that is already
 * finished answers success. A job its runner no longer holds answers
 * `TaskOrchestrationPlanTerminatedException`, which stops the retries.
 */
import type { FastifyInstance } from 'fastify';
import { isTerminal } from '../../../core/engine/index.js';
import { InputError } from '../../../core/kernel/index.js';
import { workerJob } from './job-access.js';
import { landJobLogs } from './job-log.js';
import { JOB_REPORT_BODY_LIMIT, workerPath } from './route-paths.js';
import { PlanEventBody, PlanParams, type PlanEventBodyType, type PlanParamsType } from './schemas.js';
import { completionRoute } from '../auth/index.js';
import { completionOf } from '../job-requests/index.js';
import { parseTaskResult } from './wire-enums.js';
import { planSecurity, planTerminated } from './worker-errors.js';
import type { WorkerRouteDeps } from './worker-deps.js';

export function registerPlanEventsRoute(app: FastifyInstance, deps: WorkerRouteDeps): void {
  app.post<{ Params: PlanParamsType; Body: PlanEventBodyType }>(
    workerPath('events'),
    { schema: { params: PlanParams, body: PlanEventBody }, ...completionRoute(204), bodyLimit: JOB_REPORT_BODY_LIMIT },
    async (request, reply) => {
      const worker = await workerJob(deps.engine, request);
      const event = request.body;
      if (event.name.toLowerCase() !== 'jobcompleted') {
        // JobStarted/JobAssigned are the server's own events; the runner sends none of them.
        request.log.info({ event: event.name, jobId: worker.job.id }, 'plan event ignored');
        return reply.status(204).send();
      }
      if (event.jobId === undefined) throw new InputError('JobCompleted needs the job id (jobId)', { code: 'plan_event_invalid' });
      if (event.jobId.toLowerCase() !== worker.scope.jobRecordId) {
        throw planSecurity(`JobCompleted for job ${event.jobId}, but this token reports for job ${worker.scope.jobRecordId}`);
      }
      const result = parseTaskResult(event.result, 'JobCompleted result');
      if (result === undefined) throw new InputError('JobCompleted needs a result (succeeded, failed, canceled, ...)', { code: 'plan_event_invalid' });
      const { outcome, reason } = completionOf(result);
      const outputs = outputsOf(event.outputs);
      const { scope, runnerId } = worker;
      await landJobLogs(deps, { runId: scope.runId, jobId: scope.jobId, attempt: scope.attempt, runnerId }, request.log);
      const done = await deps.engine.completeJob(worker.job.id, worker.runnerId, { outcome, outputs, ...(reason === undefined ? {} : { reason }) });
      if (!done) {
        const now = await deps.engine.getJob(worker.job.id);
        if (now === undefined || !isTerminal(now.status)) throw planTerminated(`job ${worker.scope.jobRecordId} is not running on this runner any more`);
        request.log.info({ jobId: worker.job.id, status: now.status, reported: outcome }, 'JobCompleted for a job that had finished already');
      }
      return reply.status(204).send();
    },
  );
}

/** `{name: {value, isSecret}}` (the runner's VariableValue) or `{name: "value"}`; unset values are left out. */
function outputsOf(raw: Readonly<Record<string, unknown>> | null | undefined): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [name, entry] of Object.entries(raw ?? {})) {
    const value = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.entries(entry).find(([key]) => key.toLowerCase() === 'value')?.[1] : entry;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') throw new InputError(`output '${name}' must be a string value ({"value": "..."})`, { code: 'plan_event_invalid' });
    outputs[name] = value;
  }
  return outputs;
}
