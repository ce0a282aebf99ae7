import type { Logger } from '../../../core/kernel/index.js';
import type { Engine, JobRecord } from '../../../core/engine/index.js';
import type { Clock } from '../../../core/ports/index.js';
import { MessageTypes, formatTimeSpan, type JobCancellationBody } from '../../../core/protocol/index.js';
import { engineRunnerId, resultOfJob, type JobRequestRecord, type JobRequestsStore } from '../job-requests/index.js';
import type { SessionRecord } from '../sessions/index.js';
import type { AgentsStore } from '../store/index.js';
import type { MessagesStore } from './messages-store.js';

export interface HeldJobDeps {
  readonly engine: Engine;
  readonly requests: JobRequestsStore;
  readonly messages: MessagesStore;
  readonly agents: AgentsStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly cancelTimeoutMs: number;
}

/** A job the runner holds: handed to it over this flow, still running in the engine. */
export interface HeldJob {
  readonly request: JobRequestRecord;
  readonly job: JobRecord;
}

/**
 * The job this runner holds, if any. The official runner runs one job at a time and stops when
 * handed another while one runs (JobDispatcher.EnsureDispatchFinished), so a runner holding a job
 * gets none. Requests whose job is over are closed on the way.
 */
export async function heldJobOf(deps: HeldJobDeps, agentId: number): Promise<HeldJob | undefined> {
  for (const request of await deps.requests.unfinished(agentId)) {
    const job = await deps.engine.getJob(request.requestId);
    if (job !== undefined && job.status === 'in_progress' && job.runnerId === engineRunnerId(agentId) && job.attempt === request.attempt) return { request, job };
    await deps.requests.markFinished(request.requestId, request.attempt, deps.clock.now(), job === undefined ? null : (resultOfJob(job) ?? null));
    await deps.agents.setStatus(agentId, 'online');
  }
  return undefined;
}

/**
 * Acts on a cancel request of a held job, once (§4.9). A runner that accepted the job (renewed its
 * lock) gets a JobCancellation naming the job's GUID; its Worker stops the steps, runs what runs on
 * cancellation and reports the job `canceled`. A runner that never renewed started no Worker and
 * will report nothing, so the job ends cancelled here. True when something was done.
 */
export async function cancelIfRequested(deps: HeldJobDeps, held: HeldJob, session: SessionRecord): Promise<boolean> {
  const { job, request } = held;
  if (!job.cancelRequested || request.cancelSentAt !== null) return false;
  const now = deps.clock.now();
  if (!(await deps.requests.markCancelSent(request.requestId, request.attempt, now))) return false;
  if (request.acceptedAt === null) {
    await deps.engine.completeJob(job.id, engineRunnerId(request.agentId), { outcome: 'cancelled' });
    deps.logger.info({ agentId: request.agentId, jobId: job.id }, 'job cancelled before its runner accepted it');
    return true;
  }
  const body: JobCancellationBody = { jobId: request.jobGuid, timeout: formatTimeSpan(deps.cancelTimeoutMs) };
  await deps.messages.enqueue({ sessionId: session.sessionId, agentId: request.agentId, messageType: MessageTypes.JobCancellation, body: JSON.stringify(body), requestId: job.id }, now);
  deps.logger.info({ agentId: request.agentId, jobId: job.id }, 'job cancellation queued for the runner');
  return true;
}
