import type { FastifyInstance } from 'fastify';
import { ConflictError, NotFoundError } from '../../../core/kernel/index.js';
import { isTerminal, type Engine, type Reporting, type RunRecord } from '../../../core/engine/index.js';
import { toJobView, toRunView, type RunView } from '../run-view.js';
import { JobParams, JobViewSchema, RunParams, RunViewSchema } from './schemas.js';

export interface RunRouteDependencies {
  readonly engine: Engine;
  readonly reporting: Reporting;
}

type RunParamsType = { run_id: number };
type JobParamsType = { run_id: number; job_id: number };

export async function requireRun(engine: Engine, runId: number): Promise<RunRecord> {
  const run = await engine.getRun(runId);
  if (!run) throw new NotFoundError(`run ${runId} does not exist`, { code: 'run_not_found' });
  return run;
}

async function runView(deps: RunRouteDependencies, run: RunRecord): Promise<RunView> {
  const [jobs, steps] = await Promise.all([deps.engine.listJobs(run.id), deps.reporting.listSteps(run.id)]);
  return toRunView(run, jobs, steps);
}

/**
 * `GET /runs/{run_id}`: the run now, with its jobs and their steps.
 * `POST /runs/{run_id}/cancel`: 202 with the run (its queued and waiting jobs are cancelled at
 * once; running ones when their runner picks the request up, so `cancel_requested` is true and
 * the status follows). `POST /runs/{run_id}/jobs/{job_id}/cancel`: 202 with the job. Cancelling
 * what already finished is 409 (`run_completed`, `job_completed`).
 * `POST /runs/{run_id}/jobs/{job_id}/approve`: 200 with the job, released from its environment's
 * reviewer rule (approval recorded as `admin_override`); 409 `job_not_waiting` when it is not held there.
 */
export function registerRunRoutes(app: FastifyInstance, deps: RunRouteDependencies): void {
  app.get<{ Params: RunParamsType }>('/runs/:run_id', { schema: { params: RunParams, response: { 200: RunViewSchema } } }, async (request) => {
    return runView(deps, await requireRun(deps.engine, request.params.run_id));
  });

  app.post<{ Params: RunParamsType }>('/runs/:run_id/cancel', { schema: { params: RunParams, response: { 202: RunViewSchema } } }, async (request, reply) => {
    const run = await requireRun(deps.engine, request.params.run_id);
    if (isTerminal(run.status)) throw new ConflictError(`run ${run.id} already finished (${run.status}); there is nothing to cancel`, { code: 'run_completed' });
    const cancelled = (await deps.engine.cancelRun(run.id)) ?? run;
    return reply.status(202).send(await runView(deps, cancelled));
  });

  app.post<{ Params: JobParamsType }>('/runs/:run_id/jobs/:job_id/cancel', { schema: { params: JobParams, response: { 202: JobViewSchema } } }, async (request, reply) => {
    const { run_id: runId, job_id: jobId } = request.params;
    await requireRun(deps.engine, runId);
    const job = await deps.engine.getJob(jobId);
    if (!job || job.runId !== runId) throw new NotFoundError(`run ${runId} has no job ${jobId}`, { code: 'job_not_found' });
    if (isTerminal(job.status)) throw new ConflictError(`job ${jobId} already finished (${job.status}); there is nothing to cancel`, { code: 'job_completed' });
    const cancelled = (await deps.engine.cancelJob(jobId)) ?? job;
    const steps = await deps.reporting.listSteps(runId);
    return reply.status(202).send(toJobView(cancelled, steps));
  });

  app.post<{ Params: JobParamsType }>('/runs/:run_id/jobs/:job_id/approve', { schema: { params: JobParams, response: { 200: JobViewSchema } } }, async (request) => {
    const { run_id: runId, job_id: jobId } = request.params;
    await requireRun(deps.engine, runId);
    // The system bearer is the one local reviewer: its approval is recorded as admin_override.
    const result = await deps.engine.approveJob(runId, jobId, 'system');
    if (result.kind === 'not_found') throw new NotFoundError(`run ${runId} has no job ${jobId}`, { code: 'job_not_found' });
    if (result.kind === 'not_waiting') {
      const { job } = result;
      const state = job.status === 'pending' && job.reason ? `${job.status}: ${job.reason}` : job.status;
      throw new ConflictError(`job ${jobId} is not waiting for an environment approval (it is ${state})`, { code: 'job_not_waiting' });
    }
    return toJobView(result.job, await deps.reporting.listSteps(runId));
  });
}
