import type { JobRecord } from '../../../core/engine/index.js';
import type { JsonObject } from '../../../core/protocol/index.js';
import type { JobValues } from '../../../core/ports/index.js';
import { jobTokenTtlSeconds, type JobTokens } from '../auth/index.js';
import { jobSecretsLabel, takeSealedSecrets, withJobToken, withSecretValues } from '../job-message/index.js';

/**
 * A stored job message made ready to send (job-message/job-token-slot.ts, secret-slots.ts): its
 * secrets opened and put where their slots are (the sealed member removed), and a job token
 * minted now for the job's current attempt and the runner it is handed to, put where the message
 * holds its slot. The plan and timeline are the message's own.
 */
export async function jobMessageForDelivery(jobTokens: JobTokens, jobValues: JobValues | undefined, body: string, job: JobRecord, agentId: number): Promise<string> {
  const stored = takeSealedSecrets(JSON.parse(body) as JsonObject);
  let message = stored.message;
  if (stored.sealed !== undefined) {
    if (jobValues === undefined) throw new Error(`the job message of job ${job.id} holds sealed secrets, and the secrets plugin is not enabled to open them`);
    message = withSecretValues(message, JSON.parse(await jobValues.open(jobSecretsLabel(job.id, job.attempt), stored.sealed)) as Record<string, string>);
  }
  const plan = message['plan'] as JsonObject | undefined;
  const timeline = message['timeline'] as JsonObject | undefined;
  const planId = plan?.['planId'];
  const timelineId = timeline?.['id'];
  if (typeof planId !== 'string' || typeof timelineId !== 'string') throw new Error(`the stored job message of job ${job.id} has no plan or timeline id`);
  const token = await jobTokens.mintJobToken({ runId: job.runId, jobId: job.id, agentId, planId, timelineId, attempt: job.attempt }, jobTokenTtlSeconds(job.timeoutMinutes));
  return JSON.stringify(withJobToken(message, token));
}
