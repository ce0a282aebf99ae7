import type { Logger } from '../../../core/kernel/index.js';
import type { Assignment, Engine } from '../../../core/engine/index.js';
import type { Clock, JobValues } from '../../../core/ports/index.js';
import { MessageTypes } from '../../../core/protocol/index.js';
import type { JobTokens } from '../auth/index.js';
import {
  buildJobMessage,
  describeCapped,
  jobIdFor,
  jobSecretsLabel,
  JOB_TOKEN_SLOT,
  planIdFor,
  SEALED_SECRETS_MEMBER,
  secretSlots,
  type JobMessageType,
  type ServerUrls,
  type TokenCeiling,
} from '../job-message/index.js';
import { engineRunnerId, type JobRequestsStore } from '../job-requests/index.js';
import type { SessionRecord } from '../sessions/index.js';
import type { AgentRecord, AgentsStore, RunnerDb } from '../store/index.js';
import { planAssignment } from './job-plan.js';
import { messageValues } from './job-values.js';
import type { MessageRecord, MessagesStore } from './messages-store.js';

export interface JobDispatchDeps {
  readonly db: RunnerDb;
  readonly engine: Engine;
  readonly jobTokens: JobTokens;
  readonly messages: MessagesStore;
  readonly requests: JobRequestsStore;
  readonly agents: AgentsStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The operator's `[token_permissions_ceiling]` (job-message/token-ceiling.ts); undefined for none. */
  readonly tokenCeiling: TokenCeiling | undefined;
  /** Secrets and variables (the secrets plugin); undefined when it is not enabled: jobs get none. */
  readonly jobValues: JobValues | undefined;
}

/**
 * Turns a job the engine just handed this runner into a job message on its session
 * (`PipelineAgentJobRequest`, or `RunnerJobRequest` for the broker: the body then waits for `acquirejob`):
 * the job planned again from the run's files, the message and our record of the request written
 * together. The message waits in the store until a poll delivers it, so a claim made while the
 * poll was going away is delivered on the session's next poll. It is stored without its job
 * token (job-message/job-token-slot.ts): the token is minted when the message is handed out; and
 * without its secrets' values (job-message/secret-slots.ts): they wait sealed under the secrets
 * key, opened and filled in at hand-out.
 *
 * A job whose token permissions the operator's ceiling lowered runs with the lower levels (GitHub
 * caps silently; the runner prints the capped set under "GITHUB_TOKEN Permissions"); the server
 * logs what was capped at debug level.
 *
 * A job whose message cannot be built (its workflow no longer plans) fails with the reason: no
 * runner could run it, and leaving it claimed would only delay the same failure.
 */
export async function dispatchJob(
  deps: JobDispatchDeps,
  assignment: Assignment,
  runner: AgentRecord,
  session: SessionRecord,
  serverUrls: ServerUrls,
  messageType: JobMessageType = MessageTypes.PipelineAgentJobRequest,
): Promise<MessageRecord | undefined> {
  const { run, job } = assignment;
  try {
    const { plan, needs } = await planAssignment(assignment, await deps.engine.listJobs(run.id), { serverUrl: serverUrls.publicUrl, ceiling: deps.tokenCeiling });
    if (plan.cappedPermissions.length > 0) {
      deps.logger.debug({ runId: run.id, jobId: job.id, capped: describeCapped(plan.cappedPermissions) }, 'token permissions capped by [token_permissions_ceiling]');
    }
    const planId = planIdFor(run);
    const jobGuid = jobIdFor(planId, job);
    const values = await messageValues(deps.jobValues, deps.engine, run, plan);
    const slots = secretSlots(values.secrets);
    const built = buildJobMessage({
      assignment,
      plan,
      serverUrls,
      accessToken: JOB_TOKEN_SLOT,
      needs,
      messageType,
      secrets: slots.byName,
      ...(values.vars === undefined ? {} : { vars: values.vars }),
    });
    const sealed = deps.jobValues === undefined || Object.keys(slots.values).length === 0 ? undefined : await deps.jobValues.seal(jobSecretsLabel(job.id, job.attempt), JSON.stringify(slots.values));
    const body = JSON.stringify(sealed === undefined ? built : { ...built, [SEALED_SECRETS_MEMBER]: sealed });
    const now = deps.clock.now();
    const message = await deps.db.transaction().execute(async (tx) => {
      const queued = await deps.messages.enqueue(
        { sessionId: session.sessionId, agentId: runner.id, messageType, body, requestId: job.id },
        now,
        tx,
      );
      await deps.requests.record(
        { requestId: job.id, attempt: job.attempt, agentId: runner.id, runId: run.id, jobGuid, planId, messageId: queued.id, createdAt: now },
        tx,
      );
      return queued;
    });
    await deps.agents.setStatus(runner.id, 'busy');
    deps.logger.info({ agentId: runner.id, runId: run.id, jobId: job.id, messageId: message.id }, 'job handed to the runner');
    return message;
  } catch (error) {
    const reason = `The job could not be handed to runner '${runner.name}': ${(error as Error).message}`;
    deps.logger.error({ err: error, agentId: runner.id, runId: run.id, jobId: job.id }, 'job message failed; the job fails');
    await deps.engine.completeJob(job.id, engineRunnerId(runner.id), { outcome: 'failure', reason });
    return undefined;
  }
}
