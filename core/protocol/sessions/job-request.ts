import type { TaskResultName } from './enums.js';
import { taskResultSchema } from './enums.js';
import type { TaskAgentReference } from './task-agent-session.js';
import { dateTimeSchema, guidSchema } from './schema-parts.js';

// The legacy job request (TaskAgentJobRequest, actions/runner
// src/Sdk/DTWebApi/WebApi/TaskAgentJobRequest.cs) as the Listener uses it:
// `PATCH …/jobrequests/<poolId>/<requestId>?lockToken=<empty GUID>` with the runner OAuth token.
// Renewal (TaskAgentHttpClient.RenewAgentRequestAsync) sends `{requestId}` (plus the
// `X-VSS-OrchestrationId` header), every 60 s from before the Worker starts; finishing
// (FinishAgentRequestAsync, only for plan.version < 8) sends `{requestId, finishTime, result}` on
// the same route. Serialized by the SDK, the body may carry more members (an empty `data` map);
// the schemas allow them.

/** The renew body. `lockedUntil` is never set by the runner but is part of the DTO. */
export interface JobRequestRenewal {
  readonly requestId: number;
  readonly lockedUntil?: string | null;
}

/** The finish body (legacy plans with version < 8). */
export interface JobRequestFinish {
  readonly requestId: number;
  readonly finishTime: string;
  readonly result: TaskResultName | number;
  /**
   * The DTO's `Data` map. svc-runner puts `failureReason` in it when it finishes a job its Worker
   * could not report (the Worker crashed or was killed): what happened, in one sentence.
   */
  readonly data?: Readonly<Record<string, unknown>> | null;
}

/** The `data` key svc-runner names a crashed Worker's end in. */
export const FINISH_FAILURE_REASON_KEY = 'failureReason';

/** Either body, as the one PATCH route receives them. */
export type JobRequestUpdate = JobRequestRenewal | JobRequestFinish;

/** A finish carries `finishTime` and `result`; anything else on the route is a renewal. */
export function isJobRequestFinish(update: JobRequestUpdate): update is JobRequestFinish {
  return 'finishTime' in update && 'result' in update && update.finishTime !== undefined && update.result !== undefined;
}

/** Route schema for the PATCH body (renewal or finish). */
export const jobRequestUpdateSchema = {
  type: 'object',
  required: ['requestId'],
  properties: {
    requestId: { type: 'integer' },
    lockedUntil: { anyOf: [dateTimeSchema, { type: 'null' }] },
    finishTime: dateTimeSchema,
    result: taskResultSchema,
    data: { anyOf: [{ type: 'object' }, { type: 'null' }] },
  },
} as const;

/** Query of the PATCH: the runner always sends the empty GUID. */
export interface JobRequestQuery {
  readonly lockToken: string;
}

export const jobRequestQuerySchema = {
  type: 'object',
  required: ['lockToken'],
  properties: { lockToken: guidSchema },
} as const;

/**
 * The job request the server answers with. After a renewal the runner dereferences `lockedUntil`
 * (required then) and, on the first success, renames itself to `reservedAgent.name` if that
 * differs; it ignores the answer to a finish.
 */
export interface TaskAgentJobRequest {
  readonly requestId: number;
  readonly lockedUntil?: string;
  readonly reservedAgent?: Pick<TaskAgentReference, 'id' | 'name'>;
  readonly finishTime?: string;
  readonly result?: TaskResultName | number;
  readonly planId?: string;
  readonly jobId?: string;
  readonly jobName?: string;
}

const reservedAgentSchema = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer', minimum: 0 }, name: { type: 'string' } },
} as const;

/** Response schema for the PATCH route (renewal and finish share it, so `lockedUntil` is optional). */
export const taskAgentJobRequestSchema = {
  type: 'object',
  required: ['requestId'],
  properties: {
    requestId: { type: 'integer' },
    lockedUntil: dateTimeSchema,
    reservedAgent: reservedAgentSchema,
    finishTime: dateTimeSchema,
    result: taskResultSchema,
    planId: guidSchema,
    jobId: guidSchema,
    jobName: { type: 'string' },
  },
} as const;

/** The answer to a renewal specifically: `lockedUntil` present. */
export const jobRequestRenewalResponseSchema = {
  ...taskAgentJobRequestSchema,
  required: ['requestId', 'lockedUntil'],
} as const;
