import { RunnerProtocolError, wireValidator } from '../client/index.js';

/** What the listener reads from a job message (§3.1); the worker gets the whole text. */
export interface JobMessage {
  /** The message JSON exactly as received (the worker's NewJobRequest body). */
  readonly text: string;
  readonly messageType: string;
  readonly jobId: string;
  readonly jobDisplayName: string;
  readonly requestId: number;
  readonly planId: string;
  readonly planVersion: number;
  /** SystemVssConnection: where the worker (and `renewjob`) report, with the job token. */
  readonly systemUrl: string;
  readonly jobToken: string;
  /** `orch_id`/`orchid` claim of the job token, sent as X-VSS-OrchestrationId on renewals. */
  readonly orchestrationId: string | undefined;
  readonly billingOwnerId: string | undefined;
  /** `RunnerJobRequest`: run-service mode (renewjob, completejob); anything else the legacy job request. */
  readonly runService: boolean;
}

interface Endpoint {
  name: string;
  url: string;
  authorization?: { parameters?: Record<string, string> };
}

const schema = {
  type: 'object',
  required: ['jobId', 'plan', 'resources'],
  properties: {
    messageType: { type: 'string' },
    jobId: { type: 'string', minLength: 1 },
    jobDisplayName: { type: ['string', 'null'] },
    requestId: { type: 'integer' },
    billingOwnerId: { type: ['string', 'null'] },
    plan: { type: 'object', required: ['planId'], properties: { planId: { type: 'string' }, version: { type: 'integer' } } },
    resources: {
      type: 'object',
      required: ['endpoints'],
      properties: {
        endpoints: { type: 'array', items: { type: 'object', required: ['name', 'url'], properties: { name: { type: 'string' }, url: { type: 'string' } } } },
      },
    },
  },
} as const;
const check = wireValidator<{
  messageType?: string;
  jobId: string;
  jobDisplayName?: string | null;
  requestId?: number;
  billingOwnerId?: string | null;
  plan: { planId: string; version?: number };
  resources: { endpoints: Endpoint[] };
}>(schema);

export function parseJobMessage(text: string, fallbackType: string): JobMessage {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new RunnerProtocolError(`the job message is not JSON: ${(error as Error).message}`);
  }
  const message = check(value, 'the job message');
  const system = message.resources.endpoints.find((endpoint) => endpoint.name.toLowerCase() === 'systemvssconnection');
  if (system === undefined) throw new RunnerProtocolError('the job message has no SystemVssConnection endpoint');
  const token = system.authorization?.parameters?.['AccessToken'] ?? '';
  const messageType = message.messageType ?? fallbackType;
  return {
    text,
    messageType,
    jobId: message.jobId.toLowerCase(),
    jobDisplayName: message.jobDisplayName ?? '',
    requestId: message.requestId ?? 0,
    planId: message.plan.planId,
    planVersion: message.plan.version ?? 0,
    systemUrl: system.url,
    jobToken: token,
    orchestrationId: orchestrationIdOf(token),
    billingOwnerId: message.billingOwnerId ?? undefined,
    runService: messageType.toLowerCase() === 'runnerjobrequest',
  };
}

/** Plans from version 8 on have the worker raise JobCompleted (PlanFeatures.JobCompletedPlanEvent). */
export const JOB_COMPLETED_PLAN_VERSION = 8;

function orchestrationIdOf(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const [name, value] of Object.entries(claims)) {
      if ((name.toLowerCase() === 'orch_id' || name.toLowerCase() === 'orchid') && typeof value === 'string' && value !== '') return value;
    }
  } catch {
    // Not a JWT: no orchestration id, as in the runner.
  }
  return undefined;
}
