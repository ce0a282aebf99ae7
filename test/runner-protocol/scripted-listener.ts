/**
 * The official runner's `run` over the legacy flow, scripted (actions/runner
 * src/Runner.Listener/Runner.cs RunAsync, MessageListener.cs, JobDispatcher.cs;
 * RUNNER-PROTOCOL.md §2.1-§2.8): connectionData → `POST sessions` (401 challenge → client
 * assertion → token → again) → the session key unwrapped with the runner's RSA key → long polls
 * `GET messages` (bodies decrypted as the Listener does) → `DELETE messages/{id}` → lock renewal
 * `PATCH jobrequests/{id}` → finish → `DELETE sessions/{id}`.
 */
import assert from 'node:assert/strict';
import {
  decryptMessageBody,
  unwrapSessionKey,
  type TaskAgentMessage,
  type TaskAgentSessionResponse,
  type TaskResultName,
} from '../../core/protocol/index.js';
import type { RunnerConfig, ScriptedRunner } from './scripted-runner.js';
import { expandRoute, send, vssUrl, type HttpResult, type ResourceLocation } from './vss-client.js';

/** Location ids the Listener's TaskAgentHttpClient calls (src/Sdk/DTGenerated/Generated/TaskAgentHttpClientBase.cs). */
export const LISTENER_LOCATION = {
  sessions: '134e239e-2df3-4794-a6f6-24f1f19ec8dc',
  messages: 'c3a054f6-7a8a-49c0-944e-3a8e5d7adfd7',
  jobRequests: 'fc825784-c92a-4299-9221-998a02d1b54f',
} as const;

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** A message as the Listener has it after DecryptMessage. */
export interface ReceivedMessage {
  readonly messageId: number;
  readonly messageType: string;
  /** The decrypted body, parsed. */
  readonly body: Record<string, unknown>;
}

export interface PollResult {
  readonly result: HttpResult;
  /** Undefined for an empty answer ("no message"). */
  readonly message: ReceivedMessage | undefined;
  readonly elapsedMs: number;
}

export class ScriptedListener {
  #locations: Map<string, ResourceLocation> | undefined;
  #token: string | undefined;
  #session: { readonly sessionId: string; readonly key: Buffer | undefined } | undefined;
  #lastMessageId: number | undefined;

  constructor(
    readonly runner: ScriptedRunner,
    readonly config: RunnerConfig,
  ) {}

  get sessionId(): string {
    assert.ok(this.#session, 'a session was created');
    return this.#session.sessionId;
  }

  get poolId(): number {
    return this.config.settings.poolId;
  }

  /** A listener call by location id, with the runner's OAuth token (fetched on the first 401, §1.9.1). */
  async call(
    location: string,
    request: { method: string; route?: Record<string, string | number>; query?: Record<string, string>; json?: unknown; signal?: AbortSignal },
  ): Promise<HttpResult> {
    const serverUrl = this.config.settings.serverUrl;
    this.#locations ??= await this.runner.connectionData(serverUrl);
    const found = this.#locations.get(location);
    assert.ok(found, `connectionData advertises location ${location}`);
    const url = vssUrl(serverUrl, expandRoute(found.routeTemplate, request.route ?? {}, found.area, found.resource), request.query);
    const attempt = () =>
      send(this.runner.calls, request.method, url, {
        headers: this.#token === undefined ? {} : { authorization: `Bearer ${this.#token}` },
        ...(request.json === undefined ? {} : { json: request.json }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    const first = await attempt();
    if (first.status !== 401) return first;
    assert.match(first.headers.get('www-authenticate') ?? '', /Bearer/, 'a 401 carries the Bearer challenge');
    this.#token = await this.runner.accessToken(this.config);
    return attempt();
  }

  /** `POST sessions` as MessageListener.CreateSessionAsync sends it; the raw answer. */
  async createSession(): Promise<HttpResult> {
    const result = await this.call(LISTENER_LOCATION.sessions, {
      method: 'POST',
      route: { poolId: this.poolId },
      json: {
        sessionId: EMPTY_GUID,
        ownerName: 'build-host',
        agent: { id: this.config.settings.agentId, name: this.config.settings.agentName, version: '2.337.0', osDescription: 'Ubuntu 24.04.1 LTS', ephemeral: null, status: 0, provisioningState: null },
        useFipsEncryption: false,
      },
    });
    if (result.status === 200) {
      const session = result.body as TaskAgentSessionResponse;
      // GetMessageDecryptor: RSA-OAEP with SHA-256 when the session says useFipsEncryption, SHA-1 otherwise.
      const key = unwrapSessionKey(session.encryptionKey, this.config.key, { useFipsEncryption: session.useFipsEncryption });
      this.#session = { sessionId: session.sessionId, key };
    }
    return result;
  }

  async openSession(): Promise<void> {
    const result = await this.createSession();
    assert.equal(result.status, 200, `session: ${JSON.stringify(result.body)}`);
  }

  /** One `GET messages` as MessageListener.GetNextMessageAsync makes it (`status` Online, or Busy while it runs a job). */
  async poll(options: { readonly signal?: AbortSignal; readonly sessionId?: string; readonly status?: 'Online' | 'Busy' } = {}): Promise<PollResult> {
    const started = performance.now();
    const query: Record<string, string> = {
      sessionId: options.sessionId ?? this.sessionId,
      ...(this.#lastMessageId === undefined ? {} : { lastMessageId: String(this.#lastMessageId) }),
      status: options.status ?? 'Online',
      runnerVersion: '2.337.0',
      os: 'Linux',
      architecture: 'X64',
      disableUpdate: 'false',
    };
    const result = await this.call(LISTENER_LOCATION.messages, { method: 'GET', route: { poolId: this.poolId }, query, ...(options.signal ? { signal: options.signal } : {}) });
    const elapsedMs = performance.now() - started;
    if (result.status !== 200 || result.body === undefined) return { result, message: undefined, elapsedMs };
    const wire = result.body as TaskAgentMessage;
    assert.ok(wire.iv, 'legacy messages are encrypted (an iv)');
    const body = JSON.parse(decryptMessageBody(wire, this.#session?.key)) as Record<string, unknown>;
    this.#lastMessageId = wire.messageId;
    return { result, message: { messageId: wire.messageId, messageType: wire.messageType, body }, elapsedMs };
  }

  /** Polls until a message arrives (each poll held by the server). */
  async nextMessage(): Promise<ReceivedMessage> {
    for (;;) {
      const { result, message } = await this.poll();
      assert.ok(result.status === 200 || result.status === 204, `poll: ${result.status} ${JSON.stringify(result.body)}`);
      if (message) return message;
    }
  }

  /** The acknowledgement (§2.3.3). */
  async deleteMessage(messageId: number): Promise<HttpResult> {
    return this.call(LISTENER_LOCATION.messages, { method: 'DELETE', route: { poolId: this.poolId, messageId }, query: { sessionId: this.sessionId } });
  }

  /** Lock renewal (§2.7). */
  async renew(requestId: number): Promise<HttpResult> {
    return this.call(LISTENER_LOCATION.jobRequests, { method: 'PATCH', route: { poolId: this.poolId, requestId }, query: { lockToken: EMPTY_GUID }, json: { requestId } });
  }

  /** The Listener's finish (§2.8; plans before version 8). */
  async finish(requestId: number, result: TaskResultName, finishTime = new Date().toISOString(), data?: Record<string, string>): Promise<HttpResult> {
    return this.call(LISTENER_LOCATION.jobRequests, { method: 'PATCH', route: { poolId: this.poolId, requestId }, query: { lockToken: EMPTY_GUID }, json: { requestId, finishTime, result, ...(data === undefined ? {} : { data }) } });
  }

  async getJobRequest(requestId: number): Promise<HttpResult> {
    return this.call(LISTENER_LOCATION.jobRequests, { method: 'GET', route: { poolId: this.poolId, requestId } });
  }

  async deleteSession(): Promise<HttpResult> {
    return this.call(LISTENER_LOCATION.sessions, { method: 'DELETE', route: { poolId: this.poolId, sessionId: this.sessionId } });
  }
}
