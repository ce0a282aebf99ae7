import { renewJobResponseSchema, type CompleteJobRequest, type RenewJobResponse } from '../../core/protocol/index.js';
import type { RawClient } from './broker-client.js';
import { RunnerProtocolError } from './http-error.js';
import { rawUrl } from './vss-routes.js';
import { wireValidator } from './wire-schema.js';

const checkRenewal = wireValidator<RenewJobResponse>(renewJobResponseSchema);

/**
 * The run service (§2.6-§2.8): `acquirejob` with the runner's token against the message's
 * `run_service_url`; `renewjob` and `completejob` with the job token against the job message's
 * SystemVssConnection URL.
 */
export class RunServiceClient {
  constructor(private readonly raw: RawClient) {}

  /** The job message, as the text the server sent (it goes to the worker as it is). */
  async acquireJob(runServiceUrl: string, request: { jobMessageId: string; runnerOS: string; billingOwnerId?: string }, signal?: AbortSignal): Promise<string> {
    const answer = await this.raw.call({ method: 'POST', url: rawUrl(runServiceUrl, 'acquirejob'), json: request, ...(signal === undefined ? {} : { signal }) });
    if (answer.body === undefined) throw new RunnerProtocolError(`POST ${runServiceUrl}acquirejob answered without a job message`);
    return answer.text.charCodeAt(0) === 0xfeff ? answer.text.slice(1) : answer.text;
  }

  async renewJob(systemUrl: string, jobToken: string, ids: { planId: string; jobId: string }, signal?: AbortSignal): Promise<RenewJobResponse> {
    const answer = await this.raw.call({ method: 'POST', url: rawUrl(systemUrl, 'renewjob'), json: ids, token: jobToken, ...(signal === undefined ? {} : { signal }) });
    return checkRenewal(answer.body, 'the answer of POST renewjob');
  }

  async completeJob(systemUrl: string, jobToken: string, request: CompleteJobRequest): Promise<void> {
    await this.raw.call({ method: 'POST', url: rawUrl(systemUrl, 'completejob'), json: request, token: jobToken });
  }
}
