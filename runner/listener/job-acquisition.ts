import { runnerJobRequestBodySchema, type RunnerJobRequestBody } from '../../core/protocol/index.js';
import { isAbort, randomBackoff, RunnerHttpError, sleep, wireValidator, type LegacyQueueClient, type RunServiceClient, type RunnerIdentity } from '../client/index.js';
import type { MessageSource } from './message-source.js';
import { stamp, type Terminal } from './terminal.js';
import type { ListenerTimings } from './timings.js';

const checkReference = wireValidator<RunnerJobRequestBody>(runnerJobRequestBodySchema);

export type Acquired =
  | { readonly kind: 'job'; readonly text: string }
  | { readonly kind: 'skipped' }
  /** An ephemeral runner whose job is gone at acknowledgement: it exits 0 (2.336+). */
  | { readonly kind: 'exit' };

export interface AcquireDeps {
  readonly source: MessageSource;
  readonly runService: RunServiceClient;
  readonly legacy: LegacyQueueClient;
  readonly identity: RunnerIdentity;
  readonly term: Terminal;
  readonly timings: ListenerTimings;
  readonly ephemeral: boolean;
  readonly status: () => 'Online' | 'Busy';
  readonly diagnostic: (text: string) => void;
}

/**
 * A RunnerJobRequest to a job message (§2.5.3, §2.6): the best-effort acknowledgement, then
 * `acquirejob` on the run service (or `runnermessages` on the tenant without one). A 404/409/422
 * from the run service skips the message behind an exponential throttle (1 s … 60 s); other
 * failures are tried 5 times, 5–15 s apart, then the message is skipped.
 */
export class JobAcquirer {
  #throttleMs = 0;

  constructor(private readonly deps: AcquireDeps) {}

  async acquire(body: string, signal: AbortSignal): Promise<Acquired> {
    const reference = checkReference(JSON.parse(body), 'the RunnerJobRequest message');
    if (reference.should_acknowledge === true) {
      try {
        await this.deps.source.acknowledge(reference.runner_request_id, this.deps.status(), signal);
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        if (error instanceof RunnerHttpError && error.brokerErrorKind === 'AcknowledgeJobNotFound' && this.deps.ephemeral) {
          this.deps.term.line(`${stamp()}: The job of this ephemeral runner is gone (AcknowledgeJobNotFound); exiting.`);
          return { kind: 'exit' };
        }
        this.deps.diagnostic(`best-effort acknowledge of request ${reference.runner_request_id} failed: ${(error as Error).message}`);
      }
    }
    const runServiceUrl = reference.run_service_url ?? '';
    if (runServiceUrl === '') {
      const message = await this.deps.legacy.runnerMessage(reference.runner_request_id, signal);
      return { kind: 'job', text: JSON.stringify(message) };
    }
    const request = {
      jobMessageId: reference.runner_request_id,
      runnerOS: this.deps.identity.os,
      ...(reference.billing_owner_id === undefined ? {} : { billingOwnerId: reference.billing_owner_id }),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const text = await this.deps.runService.acquireJob(runServiceUrl, request, signal);
        this.#throttleMs = 0;
        return { kind: 'job', text };
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        const status = error instanceof RunnerHttpError ? error.runServiceStatus : undefined;
        if (status === 404 || status === 409 || status === 422) {
          this.deps.diagnostic(`skipping job ${reference.runner_request_id}: ${(error as Error).message}`);
          this.#throttleMs = Math.min(this.#throttleMs === 0 ? 1000 : this.#throttleMs * 2, this.deps.timings.acquireThrottleMaxMs);
          await sleep(this.#throttleMs, signal);
          return { kind: 'skipped' };
        }
        if (attempt >= 5) {
          this.deps.term.error(`${stamp()}: Cannot acquire job ${reference.runner_request_id}: ${(error as Error).message}`);
          return { kind: 'skipped' };
        }
        await sleep(randomBackoff(...this.deps.timings.acquireBackoffMs), signal);
      }
    }
  }
}
