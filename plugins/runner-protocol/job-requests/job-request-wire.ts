import type { JobRecord } from '../../../core/engine/index.js';
import type { TaskAgentJobRequest } from '../../../core/protocol/index.js';
import type { AgentRecord } from '../store/index.js';
import { vssDate } from '../vss/index.js';
import type { JobRequestRecord } from './job-requests-store.js';
import { resultOfJob } from './task-result.js';

/**
 * A job request as the Listener reads it: `lockedUntil` after a renewal (it dereferences it),
 * `reservedAgent.name` (it renames itself when that differs), and `result` once the job finished
 * (a runner handed a new job while an old one still runs asks for the old one's `result`, and
 * cancels that Worker only when it is set: JobDispatcher.EnsureDispatchFinished).
 */
export function jobRequestWire(job: JobRecord, request: JobRequestRecord | undefined, agent: AgentRecord, lockedUntil?: number): TaskAgentJobRequest {
  const result = resultOfJob(job);
  const until = lockedUntil ?? job.leaseExpiresAt;
  return {
    requestId: job.id,
    ...(until === null ? {} : { lockedUntil: vssDate(until) }),
    reservedAgent: { id: agent.id, name: agent.name },
    ...(request === undefined ? {} : { planId: request.planId, jobId: request.jobGuid }),
    jobName: job.name,
    ...(result === undefined ? {} : { result, finishTime: vssDate(job.completedAt ?? job.startedAt ?? 0) }),
  };
}
