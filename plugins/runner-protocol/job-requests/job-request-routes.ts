import type { FastifyInstance } from 'fastify';
import type { Completion, Engine, JobRecord } from '../../../core/engine/index.js';
import type { Clock } from '../../../core/ports/index.js';
import {
  FINISH_FAILURE_REASON_KEY,
  isJobRequestFinish,
  jobRequestQuerySchema,
  jobRequestUpdateSchema,
  taskAgentJobRequestSchema,
  type JobRequestUpdate,
  type TaskResultName,
} from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import { poolIdParamsSchema, requireRunnerPool, type LegacyFlowTimings } from '../sessions/index.js';
import type { AgentRecord, AgentsStore, PoolsStore } from '../store/index.js';
import { VssError } from '../vss/index.js';
import { jobRequestWire } from './job-request-wire.js';
import type { JobRequestRecord, JobRequestsStore } from './job-requests-store.js';
import { completionOf, engineRunnerId, taskResultName } from './task-result.js';

export const JOB_REQUESTS_PATH = '/_apis/distributedtask/pools/:poolId/jobrequests/:requestId';

export interface JobRequestRoutesDeps {
  readonly engine: Engine;
  readonly requests: JobRequestsStore;
  readonly agents: AgentsStore;
  readonly pools: PoolsStore;
  readonly clock: Clock;
  readonly timings: LegacyFlowTimings;
}

const requestParamsSchema = {
  type: 'object',
  required: ['poolId', 'requestId'],
  properties: { ...poolIdParamsSchema.properties, requestId: { type: 'integer', minimum: 0 } },
} as const;

interface Held {
  readonly job: JobRecord;
  readonly request: JobRequestRecord | undefined;
}

/**
 * The job (and our record of handing it over) when it is this runner's: handed to it, in its
 * current attempt. Anything else is `TaskAgentJobNotFoundException` — a job that does not exist
 * and another runner's job look the same, and either way the runner stops (§2.9).
 */
async function heldBy(deps: JobRequestRoutesDeps, runner: AgentRecord, requestId: number): Promise<Held> {
  const job = await deps.engine.getJob(requestId);
  const request = await deps.requests.get(requestId);
  const mine = job !== undefined && job.runnerId === engineRunnerId(runner.id) && (request === undefined || (request.agentId === runner.id && request.attempt === job.attempt));
  if (!mine) throw new VssError(404, 'TaskAgentJobNotFoundException', `Job request ${requestId} was not found for runner '${runner.name}'`);
  return { job, request };
}

/** A job the Worker never reported (plans ≥ 8 end with its JobCompleted) failed because the Worker did not finish it. */
const WORKER_GONE_REASON = "The runner's worker ended without reporting the job (it crashed or was killed).";
const REASON_MAX = 500;

/**
 * What the Listener's finish records: its result, and for a failure the Worker could not report,
 * what happened (svc-runner says it in `data.failureReason`, e.g. "the runner worker exited with
 * signal SIGKILL"), so the job's reason is never empty.
 */
function listenerCompletion(result: TaskResultName, data: Readonly<Record<string, unknown>> | null | undefined): Completion {
  const completion = completionOf(result);
  if (completion.outcome !== 'failure' || completion.reason !== undefined) return completion;
  const said = data?.[FINISH_FAILURE_REASON_KEY];
  const reason = typeof said === 'string' && said.trim() !== '' ? said.trim().slice(0, REASON_MAX) : WORKER_GONE_REASON;
  return { ...completion, reason };
}

/**
 * The listener side of a job (§2.7, §2.8): `PATCH …/jobrequests/{requestId}?lockToken=` renews the
 * lock (the engine's lease; the first renewal is the runner accepting the job) or, with
 * `finishTime` and `result`, finishes it; `GET …/jobrequests/{requestId}` reads it.
 *
 * Renewing a job that is over (finished, or its lease lapsed and the engine gave it up) answers
 * `TaskAgentJobTokenExpiredException`: the runner stops renewing and stops the Worker if one still
 * runs. A cancelled job keeps renewing until its Worker reports: the cancellation itself travels
 * as a JobCancellation message (§4.9).
 */
export function registerJobRequestRoutes(app: FastifyInstance, deps: JobRequestRoutesDeps): void {
  app.patch<{ Params: { poolId: number; requestId: number }; Querystring: { lockToken: string }; Body: JobRequestUpdate }>(
    JOB_REQUESTS_PATH,
    { schema: { params: requestParamsSchema, querystring: jobRequestQuerySchema, body: jobRequestUpdateSchema, response: { 200: taskAgentJobRequestSchema } } },
    async (request) => {
      const runner = runnerOf(request);
      await requireRunnerPool(runner, request.params.poolId, deps.pools);
      const requestId = request.params.requestId;
      if (request.body.requestId !== requestId) throw new VssError(400, 'VssServiceException', `The body names job request ${request.body.requestId}, the URL ${requestId}`);
      const { job, request: handed } = await heldBy(deps, runner, requestId);
      const runnerId = engineRunnerId(runner.id);
      const now = deps.clock.now();

      if (isJobRequestFinish(request.body)) {
        const result = taskResultName(request.body.result);
        if (result === undefined) throw new VssError(400, 'VssServiceException', `Unknown job result '${String(request.body.result)}'`);
        // The Worker may have completed the job through the plan already (JobCompleted): then this is a no-op.
        if (job.status === 'in_progress') await deps.engine.completeJob(job.id, runnerId, listenerCompletion(result, request.body.data));
        await deps.requests.markFinished(requestId, job.attempt, now, result);
        await deps.agents.setStatus(runner.id, 'online');
        const after = (await deps.engine.getJob(requestId)) ?? job;
        return jobRequestWire(after, handed, runner);
      }

      if (job.status !== 'in_progress') {
        throw new VssError(403, 'TaskAgentJobTokenExpiredException', `Job request ${requestId} is over (${job.status}); stop renewing it`);
      }
      const renewed = await deps.engine.renewJob(job.id, runnerId, deps.timings.jobLockMs);
      if (!renewed.held) throw new VssError(403, 'TaskAgentJobTokenExpiredException', `The lock on job request ${requestId} has expired`);
      if (handed !== undefined && (await deps.requests.markAccepted(requestId, job.attempt, now))) {
        request.log.info({ agentId: runner.id, jobId: job.id, runId: job.runId }, 'the runner accepted the job (first lock renewal)');
      }
      return jobRequestWire(job, handed, runner, renewed.leaseExpiresAt);
    },
  );

  app.get<{ Params: { poolId: number; requestId: number } }>(JOB_REQUESTS_PATH, { schema: { params: requestParamsSchema, response: { 200: taskAgentJobRequestSchema } } }, async (request) => {
    const runner = runnerOf(request);
    await requireRunnerPool(runner, request.params.poolId, deps.pools);
    const { job, request: handed } = await heldBy(deps, runner, request.params.requestId);
    return jobRequestWire(job, handed, runner);
  });
}
