import type { TaskResultName } from '../../core/protocol/index.js';
import { RunnerHttpError, sleep, type LegacyQueueClient, type RunServiceClient } from '../client/index.js';
import type { JobMessage } from './job-message.js';
import type { JobLock } from './lock-renewal.js';
import type { ListenerTimings } from './timings.js';

/**
 * The listener's own word on how a job ended (§2.8): the legacy job request's finish, or the run
 * service's `completejob` with the job token. Used for plans before version 8 (as the runner),
 * and — beyond the runner — whenever the worker could not report itself (it crashed, or was
 * killed after the wind-down), so the server does not wait for a lease to lapse.
 */
export interface JobReporter {
  /** `failureReason`: what happened to a Worker that could not report (e.g. "the runner worker exited with signal SIGKILL"). */
  report(result: TaskResultName, workerOutput: readonly string[] | undefined, failureReason?: string): Promise<void>;
}

export interface JobServices {
  readonly lock: JobLock;
  readonly reporter: JobReporter;
}

const isLegacyFinal = (error: unknown): boolean =>
  error instanceof RunnerHttpError && (error.isVss('TaskAgentJobNotFoundException') || error.isVss('TaskAgentJobTokenExpiredException'));
// A 401 on the job token is final too: it cannot be renewed, and the server refuses a finished job's token.
const isRunServiceFinal = (error: unknown): boolean => error instanceof RunnerHttpError && (error.runServiceStatus === 404 || error.status === 401);

async function withAttempts(timings: ListenerTimings, isFinal: (error: unknown) => boolean, action: () => Promise<void>): Promise<void> {
  const errors: unknown[] = [];
  for (let attempt = 1; attempt <= timings.finishAttempts; attempt++) {
    try {
      await action();
      return;
    } catch (error) {
      if (isFinal(error)) return;
      errors.push(error);
      if (attempt < timings.finishAttempts) await sleep(timings.finishRetryMs);
    }
  }
  throw new AggregateException(errors);
}

class AggregateException extends Error {
  constructor(readonly errors: readonly unknown[]) {
    super(`could not report the job's result: ${errors.map((e) => (e as Error).message).join('; ')}`);
  }
}

/** Legacy (`PipelineAgentJobRequest`): renew and finish the job request (runner token). */
export function legacyJobServices(client: LegacyQueueClient, job: JobMessage, timings: ListenerTimings): JobServices {
  return {
    lock: {
      renew: async (signal) => Date.parse((await client.renewJobRequest(job.requestId, job.orchestrationId, signal)).lockedUntil),
      isFinal: isLegacyFinal,
    },
    reporter: {
      report: (result, _output, failureReason) => withAttempts(timings, isLegacyFinal, () => client.finishJobRequest(job.requestId, result, new Date(), failureReason)),
    },
  };
}

/** Run service (`RunnerJobRequest`): `renewjob` and `completejob` with the job token. */
export function runServiceJobServices(client: RunServiceClient, job: JobMessage, timings: ListenerTimings): JobServices {
  const ids = { planId: job.planId, jobId: job.jobId };
  return {
    lock: {
      renew: async (signal) => Date.parse((await client.renewJob(job.systemUrl, job.jobToken, ids, signal)).lockedUntil),
      isFinal: isRunServiceFinal,
    },
    reporter: {
      report: (result, output, failureReason) =>
        withAttempts(timings, isRunServiceFinal, () =>
          client.completeJob(job.systemUrl, job.jobToken, {
            ...ids,
            conclusion: result,
            outputs: {},
            stepResults: [],
            ...(output === undefined || output.length === 0
              ? {}
              : { annotations: [{ level: 'failure', message: output.join('\n').slice(-64_000), title: failureReason ?? 'The runner worker crashed', isInfrastructureIssue: true }] }),
            ...(job.billingOwnerId === undefined ? {} : { billingOwnerId: job.billingOwnerId }),
          }),
        ),
    },
  };
}
