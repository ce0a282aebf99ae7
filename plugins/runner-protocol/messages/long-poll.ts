import type { Engine } from '../../../core/engine/index.js';
import type { Notifier } from '../../../core/ports/index.js';
import { MessageTypes } from '../../../core/protocol/index.js';
import type { ServerUrls } from '../job-message/index.js';
import { engineRunnerId } from '../job-requests/index.js';
import type { LegacyFlowTimings, SessionRecord } from '../sessions/index.js';
import type { AgentRecord } from '../store/index.js';
import { cancelIfRequested, heldJobOf, type HeldJobDeps } from './held-job.js';
import { dispatchJob, type JobDispatchDeps } from './job-dispatch.js';
import { jobMessageForDelivery } from './job-message-delivery.js';
import type { MessageRecord } from './messages-store.js';
import type { PollSignal } from './poll-signal.js';
import { waitForRun } from './run-wake.js';

export interface LongPollDeps extends HeldJobDeps, JobDispatchDeps {
  readonly engine: Engine;
  readonly notifier: Notifier;
  readonly timings: LegacyFlowTimings;
}

export interface PollContext {
  readonly runner: AgentRecord;
  readonly session: SessionRecord;
  readonly poll: PollSignal;
  readonly serverUrls: ServerUrls;
  /**
   * Broker flow: jobs go out as `RunnerJobRequest` messages whose job message (built for the run
   * service at `serverUrls.api`) waits for `acquirejob`. Legacy: `PipelineAgentJobRequest`.
   */
  readonly broker?: boolean;
  /**
   * The poll's `status=Busy`: the runner still runs a job as far as it knows (its Worker may
   * still be exiting after reporting the job done). It is handed no new job: the runner aborts
   * this poll when it goes back to `Online` (§2.3.1), and a job claimed for a poll being aborted
   * would be lost in flight.
   */
  readonly busy?: boolean;
}

/** A message claimed for delivery, with the body to send. */
export interface Delivery {
  readonly message: MessageRecord;
  readonly body: string;
}

/**
 * One long poll (§2.3.1): the next message for the session, or undefined when the poll ends first.
 *
 * 1. A message already waiting on the session goes first (e.g. a job claimed while the previous
 *    poll was going away); a job message whose job is no longer the runner's is dropped.
 * 2. A runner holding a job gets no other: its poll waits on that job's run and delivers the
 *    cancellation when one is requested. Nor does a poll that says `status=Busy`.
 * 3. An idle runner waits in the engine for a job its labels match: woken by the engine's
 *    notification within milliseconds of a job being queued, the job claimed with a short
 *    delivery lease that the runner's first lock renewal extends (§2.7). A runner that never
 *    renews (it did not get the message) loses the job when that lease lapses.
 */
export async function nextMessage(deps: LongPollDeps, context: PollContext): Promise<Delivery | undefined> {
  const { runner, session, poll } = context;
  const identity = {
    runnerId: engineRunnerId(runner.id),
    runnerName: runner.name,
    labels: runner.labels.map((label) => label.name),
    ...(runner.homeNode === null ? {} : { homeNode: runner.homeNode }),
  };
  for (;;) {
    const pending = await deps.messages.nextUndelivered(session.sessionId);
    if (pending !== undefined) {
      if (poll.clientGone()) return undefined;
      const delivery = await claimDelivery(deps, pending, runner.id);
      if (delivery !== undefined) return delivery;
      continue;
    }
    if (poll.signal.aborted) return undefined;

    const held = await heldJobOf(deps, runner.id);
    if (held !== undefined) {
      if (await cancelIfRequested(deps, held, session)) continue;
      await waitForRun(deps.notifier, held.job.runId, { timeoutMs: deps.timings.busyRecheckMs, signal: poll.signal });
      continue;
    }
    // An ephemeral runner runs one job, then its registration ends: it is never handed a second.
    // A runner that says it is busy is handed nothing until it polls as Online.
    if (context.busy === true || (runner.ephemeral && (await deps.requests.hasAny(runner.id)))) {
      await aborted(poll.signal);
      return undefined;
    }

    const assignment = await deps.engine.waitForJob(identity, { timeoutMs: deps.timings.pollHoldMs, leaseMs: deps.timings.deliveryLeaseMs, signal: poll.signal });
    if (assignment !== undefined) {
      const messageType = context.broker === true ? MessageTypes.RunnerJobRequest : MessageTypes.PipelineAgentJobRequest;
      await dispatchJob(deps, assignment, runner, session, context.serverUrls, messageType);
    } else if (poll.signal.aborted) return undefined;
  }
}

/** Claims a waiting message for this poll; a job message whose job is gone or cancelled is dropped instead. */
async function claimDelivery(deps: LongPollDeps, message: MessageRecord, agentId: number): Promise<Delivery | undefined> {
  if (message.body === null) {
    await deps.messages.drop(message.id);
    return undefined;
  }
  const brokerJob = message.messageType === MessageTypes.RunnerJobRequest;
  let body = message.body;
  if (message.requestId !== null && (brokerJob || message.messageType === MessageTypes.PipelineAgentJobRequest)) {
    const job = await deps.engine.getJob(message.requestId);
    const stillOurs = job !== undefined && job.status === 'in_progress' && job.runnerId === engineRunnerId(agentId) && !job.cancelRequested;
    if (!stillOurs) {
      // A cancelled job that never reached its runner is ended by the held-job path.
      await deps.messages.drop(message.id);
      return undefined;
    }
    // The job token goes in now (a broker job's at `acquirejob`, which hands out its message).
    if (!brokerJob) body = await jobMessageForDelivery(deps.jobTokens, deps.jobValues, message.body, job, agentId);
  }
  // A broker job message keeps its job message body for `acquirejob`.
  if (!(await deps.messages.markDelivered(message.id, deps.clock.now(), brokerJob))) return undefined;
  return { message, body };
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
