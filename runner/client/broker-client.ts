import { taskAgentMessageSchema, type TaskAgentMessage, type TaskAgentSessionRequest } from '../../core/protocol/index.js';
import type { HttpAnswer, HttpClient, HttpRequest } from './http-client.js';
import { RunnerHttpError } from './http-error.js';
import type { PollStatus } from './legacy-queue-client.js';
import type { RunnerTokenSource } from './oauth-token.js';
import { rawUrl } from './vss-routes.js';
import { wireValidator } from './wire-schema.js';

/**
 * A raw client (broker, run service, §0.6): URLs resolved against a base ending with `/`, the
 * runner's token fetched before the first call and fetched again once on a 401 (§1.9.1).
 */
export class RawClient {
  constructor(
    readonly http: HttpClient,
    private readonly tokens: RunnerTokenSource,
  ) {}

  /** Any non-2xx is a RunnerHttpError. `token` replaces the runner's (the job token of renewjob). */
  async call(request: HttpRequest & { readonly token?: string }): Promise<HttpAnswer> {
    const send = (token: string) => this.http.send({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
    let answer: HttpAnswer;
    if (request.token !== undefined) {
      answer = await send(request.token);
    } else {
      answer = await send(this.tokens.current ?? (await this.tokens.refresh(request.signal)));
      if (answer.status === 401) answer = await send(await this.tokens.refresh(request.signal));
    }
    if (answer.status < 200 || answer.status > 299) throw new RunnerHttpError(request.method, request.url, answer.status, answer.body, answer.text);
    return answer;
  }
}

const checkMessage = wireValidator<TaskAgentMessage>(taskAgentMessageSchema);
const checkSession = wireValidator<{ sessionId: string }>({ type: 'object', required: ['sessionId'], properties: { sessionId: { type: 'string', minLength: 1 } } });

/** The broker's long poll times out on the client after 100 s (§2.5.2). */
export const BROKER_POLL_TIMEOUT_MS = 100_000;

/** The broker listener (§2.5): `session`, `message`, `acknowledge` relative to `serverUrlV2`. */
export class BrokerClient {
  constructor(
    private readonly raw: RawClient,
    readonly baseUrl: string,
  ) {}

  async createSession(request: TaskAgentSessionRequest, signal?: AbortSignal): Promise<string> {
    const answer = await this.raw.call({ method: 'POST', url: rawUrl(this.baseUrl, 'session'), json: request, ...(signal === undefined ? {} : { signal }) });
    return checkSession(answer.body, 'the answer of POST session').sessionId;
  }

  async deleteSession(): Promise<void> {
    await this.raw.call({ method: 'DELETE', url: rawUrl(this.baseUrl, 'session'), timeoutMs: 30_000 });
  }

  async getMessage(sessionId: string, poll: PollStatus, signal: AbortSignal): Promise<TaskAgentMessage | undefined> {
    const url = rawUrl(this.baseUrl, 'message', {
      sessionId,
      status: poll.status,
      runnerVersion: poll.runnerVersion,
      os: poll.os,
      architecture: poll.architecture,
      disableUpdate: String(poll.disableUpdate),
    });
    const answer = await this.raw.call({ method: 'GET', url, timeoutMs: BROKER_POLL_TIMEOUT_MS, signal });
    return answer.body === undefined || answer.body === null ? undefined : checkMessage(answer.body, 'the answer of GET message');
  }

  /** Best effort: 5 s, no retry (§2.5.3). */
  async acknowledge(runnerRequestId: string, sessionId: string, poll: PollStatus, signal?: AbortSignal): Promise<void> {
    const url = rawUrl(this.baseUrl, 'acknowledge', { sessionId, status: poll.status, runnerVersion: poll.runnerVersion, os: poll.os, architecture: poll.architecture });
    await this.raw.call({ method: 'POST', url, json: { runnerRequestId }, timeoutMs: 5000, ...(signal === undefined ? {} : { signal }) });
  }
}
