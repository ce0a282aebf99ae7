import {
  EMPTY_GUID,
  FINISH_FAILURE_REASON_KEY,
  jobRequestRenewalResponseSchema,
  taskAgentMessageSchema,
  taskAgentSessionResponseSchema,
  type TaskAgentJobRequest,
  type TaskAgentMessage,
  type TaskAgentSessionRequest,
  type TaskAgentSessionResponse,
  type TaskResultName,
} from '../../core/protocol/index.js';
import type { VssConnection } from './vss-connection.js';
import { LOCATIONS } from './vss-routes.js';
import { wireValidator } from './wire-schema.js';

/** The query of a message poll (legacy `GET messages` and the broker's `GET message`, §2.3.1). */
export interface PollStatus {
  readonly status: 'Online' | 'Busy';
  readonly runnerVersion: string;
  readonly os: string;
  readonly architecture: string;
  readonly disableUpdate: boolean;
}

const checkSession = wireValidator<TaskAgentSessionResponse>(taskAgentSessionResponseSchema);
const checkMessage = wireValidator<TaskAgentMessage>(taskAgentMessageSchema);
const checkRenewal = wireValidator<TaskAgentJobRequest & { lockedUntil: string }>(jobRequestRenewalResponseSchema);

/** The client's timeout on the long poll (the server holds it ~50 s, §2.3.1). */
export const LEGACY_POLL_TIMEOUT_MS = 60_000;
const SHORT_TIMEOUT_MS = 30_000;

/**
 * The legacy listener's calls on the tenant (RUNNER-PROTOCOL.md §2.2-§2.8), with the runner's
 * OAuth credential: sessions, the message queue, job-request renewal and finish, runnermessages.
 */
export class LegacyQueueClient {
  constructor(
    readonly connection: VssConnection,
    readonly poolId: number,
  ) {}

  async createSession(request: TaskAgentSessionRequest, signal?: AbortSignal): Promise<TaskAgentSessionResponse> {
    const body = await this.connection.request({
      location: LOCATIONS.sessions,
      method: 'POST',
      route: { poolId: this.poolId },
      json: request,
      attempts: 1,
      ...(signal === undefined ? {} : { signal }),
    });
    return checkSession(body, 'the answer of POST sessions');
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.connection.request({ location: LOCATIONS.sessions, method: 'DELETE', route: { poolId: this.poolId, sessionId }, timeoutMs: SHORT_TIMEOUT_MS, attempts: 1 });
  }

  /** One long poll; undefined when the server had nothing (an empty answer). */
  async getMessage(sessionId: string, lastMessageId: number | undefined, poll: PollStatus, signal: AbortSignal): Promise<TaskAgentMessage | undefined> {
    const body = await this.connection.request({
      location: LOCATIONS.messages,
      method: 'GET',
      route: { poolId: this.poolId },
      query: {
        sessionId,
        ...(lastMessageId === undefined ? {} : { lastMessageId: String(lastMessageId) }),
        status: poll.status,
        runnerVersion: poll.runnerVersion,
        os: poll.os,
        architecture: poll.architecture,
        disableUpdate: String(poll.disableUpdate),
      },
      timeoutMs: LEGACY_POLL_TIMEOUT_MS,
      attempts: 1,
      signal,
    });
    return body === undefined || body === null ? undefined : checkMessage(body, 'the answer of GET messages');
  }

  /** The acknowledgement (§2.3.3). */
  async deleteMessage(messageId: number, sessionId: string): Promise<void> {
    await this.connection.request({
      location: LOCATIONS.messages,
      method: 'DELETE',
      route: { poolId: this.poolId, messageId },
      query: { sessionId },
      timeoutMs: SHORT_TIMEOUT_MS,
      attempts: 1,
    });
  }

  /** Lock renewal (§2.7); `lockedUntil` must be in the answer. */
  async renewJobRequest(requestId: number, orchestrationId: string | undefined, signal?: AbortSignal): Promise<TaskAgentJobRequest & { lockedUntil: string }> {
    const body = await this.connection.request({
      location: LOCATIONS.jobRequests,
      method: 'PATCH',
      route: { poolId: this.poolId, requestId },
      query: { lockToken: EMPTY_GUID },
      json: { requestId },
      headers: orchestrationId === undefined || orchestrationId === '' ? {} : { 'x-vss-orchestrationid': orchestrationId },
      ...(signal === undefined ? {} : { signal }),
    });
    return checkRenewal(body, 'the answer of the job request renewal');
  }

  /** The listener's finish (§2.8). */
  async finishJobRequest(requestId: number, result: TaskResultName, finishTime: Date, failureReason?: string): Promise<void> {
    await this.connection.request({
      location: LOCATIONS.jobRequests,
      method: 'PATCH',
      route: { poolId: this.poolId, requestId },
      query: { lockToken: EMPTY_GUID },
      // The DTO's Data map carries what happened to a Worker that could not report itself.
      json: { requestId, finishTime: finishTime.toISOString(), result, ...(failureReason === undefined ? {} : { data: { [FINISH_FAILURE_REASON_KEY]: failureReason } }) },
    });
  }

  /** `GET runnermessages/<id>`: the job message of a RunnerJobRequest without a run service (§2.6). */
  async runnerMessage(messageId: string, signal?: AbortSignal): Promise<unknown> {
    return this.connection.request({ location: LOCATIONS.runnerMessages, method: 'GET', route: { messageId }, ...(signal === undefined ? {} : { signal }) });
  }
}
