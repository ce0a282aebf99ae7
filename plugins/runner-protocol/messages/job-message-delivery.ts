import type { JobRecord } from '../../../core/engine/index.js';
import type { JsonObject } from '../../../core/protocol/index.js';
import { jobTokenTtlSeconds, type JobTokens } from '../auth/index.js';
import { withJobToken } from '../job-message/index.js';

/**
 * A stored job message made ready to send (job-message/job-token-slot.ts): a job token minted now
 * for the job's current attempt and the runner it is handed to, put where the message holds the
 * slot. The plan and timeline are the message's own.
 */
export async function jobMessageForDelivery(jobTokens: JobTokens, body: string, job: JobRecord, agentId: number): Promise<string> {
  const message = JSON.parse(body) as JsonObject;
  const plan = message['plan'] as JsonObject | undefined;
  const timeline = message['timeline'] as JsonObject | undefined;
  const planId = plan?.['planId'];
  const timelineId = timeline?.['id'];
  if (typeof planId !== 'string' || typeof timelineId !== 'string') throw new Error(`the stored job message of job ${job.id} has no plan or timeline id`);
  const token = await jobTokens.mintJobToken({ runId: job.runId, jobId: job.id, agentId, planId, timelineId, attempt: job.attempt }, jobTokenTtlSeconds(job.timeoutMinutes));
  return JSON.stringify(withJobToken(message, token));
}
