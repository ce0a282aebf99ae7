import type { FastifyRequest } from 'fastify';
import type { Engine, JobRecord } from '../../../core/engine/index.js';
import { jobTokenOf } from '../auth/index.js';
import type { JobScope } from './records-store.js';
import { planNotFound, planTerminated, timelineNotFound, type WorkerVssError } from './worker-errors.js';

/** The job a Worker request reports for: its engine row, its place on the timeline, its runner. */
export interface WorkerJob {
  readonly job: JobRecord;
  readonly scope: JobScope;
  /** The engine's runner id of the job (reports are accepted from it only). */
  readonly runnerId: string;
}

/**
 * The job the request's token names, as the engine has it now. The token was minted for one
 * attempt of the job by the runner that acquired it (auth/job-token.ts), so a token whose job is
 * gone answers "plan not found" and one whose attempt is over (re-run) "plan terminated": the
 * Worker then stops without retrying. `notFound` picks the exception for routes where the runner
 * expects a timeline one.
 */
export async function workerJob(engine: Engine, request: FastifyRequest, notFound: (message: string) => WorkerVssError = planNotFound): Promise<WorkerJob> {
  const claims = jobTokenOf(request);
  const job = await engine.getJob(claims.jobId);
  if (job === undefined || job.runId !== claims.runId) throw notFound(`plan ${claims.planId} has no job ${claims.jobRecordId}`);
  if (job.attempt !== claims.attempt || job.runnerId === null) {
    throw planTerminated(`attempt ${claims.attempt} of job ${claims.jobRecordId} is over (the job is at attempt ${job.attempt}${job.runnerId === null ? ', not held by a runner' : ''})`);
  }
  const scope: JobScope = {
    planId: claims.planId,
    timelineId: claims.timelineId,
    jobRecordId: claims.jobRecordId,
    jobId: job.id,
    attempt: job.attempt,
    runId: job.runId,
  };
  return { job, scope, runnerId: job.runnerId };
}

/** `workerJob` for timeline routes (their runner-side exceptions are the timeline ones). */
export const timelineJob = (engine: Engine, request: FastifyRequest) => workerJob(engine, request, timelineNotFound);
