/**
 * The official runner's `run` over the broker + run-service flow, scripted (actions/runner
 * src/Runner.Listener/BrokerMessageListener.cs, Runner.cs, JobDispatcher.cs, BrokerHttpClient.cs,
 * RunServiceHttpClient.cs; RUNNER-PROTOCOL.md §2.5-§2.8): raw clients resolving relative URLs
 * against bases ending with `/` (§0.6), the runner OAuth token fetched on a 401, `POST session` →
 * `GET message` (plain JSON) → `POST acknowledge` → `POST acquirejob` → `POST renewjob` (job
 * token) → `POST completejob` → `DELETE session`.
 */
import assert from 'node:assert/strict';
import type { BrokerMessage, RunnerJobRequestBody, TaskResultName } from '../../core/protocol/index.js';
import type { RunnerConfig, ScriptedRunner } from './scripted-runner.js';
import { send, type HttpResult } from './vss-client.js';

const QUERY = { status: 'Online', runnerVersion: '2.337.0', os: 'Linux', architecture: 'X64' } as const;

export interface BrokerPoll {
  readonly result: HttpResult;
  /** Undefined for an empty answer. */
  readonly message: BrokerMessage | undefined;
}

export class ScriptedBroker {
  #token: string | undefined;
  #sessionId: string | undefined;

  constructor(
    readonly runner: ScriptedRunner,
    readonly config: RunnerConfig,
    /** `serverUrlV2`, or the `brokerBaseUrl` of a BrokerMigration. */
    readonly brokerUrl: string,
  ) {
    assert.ok(brokerUrl.endsWith('/'), 'the broker base ends with /');
  }

  get sessionId(): string {
    assert.ok(this.#sessionId, 'a session was created');
    return this.#sessionId;
  }

  /** Uses a session opened elsewhere (a legacy session, after a BrokerMigration). */
  adoptSession(sessionId: string): void {
    this.#sessionId = sessionId;
  }

  /** A raw call with the runner OAuth token (one refresh on a 401). */
  async call(method: string, url: string, options: { readonly json?: unknown; readonly token?: string } = {}): Promise<HttpResult> {
    const attempt = (token: string | undefined) =>
      send(this.runner.calls, method, url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, ...(options.json === undefined ? {} : { json: options.json }) });
    if (options.token !== undefined) return attempt(options.token);
    const first = await attempt(this.#token);
    if (first.status !== 401) return first;
    this.#token = await this.runner.accessToken(this.config);
    return attempt(this.#token);
  }

  url(relative: string, query: Readonly<Record<string, string>> = {}): string {
    const url = new URL(relative, this.brokerUrl);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.href;
  }

  async createSession(): Promise<HttpResult> {
    const result = await this.call('POST', this.url('session'), {
      json: {
        sessionId: '00000000-0000-0000-0000-000000000000',
        ownerName: 'build-host',
        agent: { id: this.config.settings.agentId, name: this.config.settings.agentName, version: '2.337.0', osDescription: 'Ubuntu 24.04.1 LTS', ephemeral: null, status: 0, provisioningState: null },
        useFipsEncryption: false,
      },
    });
    if (result.status === 200) this.#sessionId = (result.body as { sessionId: string }).sessionId;
    return result;
  }

  async poll(status: 'Online' | 'Busy' = 'Online', sessionId = this.sessionId): Promise<BrokerPoll> {
    const result = await this.call('GET', this.url('message', { sessionId, ...QUERY, status, disableUpdate: 'false' }));
    return { result, message: result.status === 200 && result.body !== undefined ? (result.body as BrokerMessage) : undefined };
  }

  async nextMessage(): Promise<BrokerMessage> {
    for (;;) {
      const { result, message } = await this.poll();
      assert.equal(result.status, 200, `poll: ${JSON.stringify(result.body)}`);
      if (message) return message;
    }
  }

  async acknowledge(runnerRequestId: string): Promise<HttpResult> {
    return this.call('POST', this.url('acknowledge', { sessionId: this.sessionId, ...QUERY }), { json: { runnerRequestId } });
  }

  async acquire(request: RunnerJobRequestBody): Promise<HttpResult> {
    assert.ok(request.run_service_url?.endsWith('/'), 'run_service_url ends with /');
    return this.call('POST', new URL('acquirejob', request.run_service_url).href, { json: { jobMessageId: request.runner_request_id, runnerOS: 'Linux' } });
  }

  /** `renewjob` against the job message's SystemVssConnection URL, with its job token. */
  async renew(systemUrl: string, token: string, ids: { planId: string; jobId: string }): Promise<HttpResult> {
    return this.call('POST', new URL('renewjob', systemUrl).href, { token, json: ids });
  }

  async complete(systemUrl: string, token: string, ids: { planId: string; jobId: string }, conclusion: TaskResultName, outputs: Record<string, { value: string }> = {}): Promise<HttpResult> {
    return this.call('POST', new URL('completejob', systemUrl).href, { token, json: { ...ids, conclusion, outputs, stepResults: [] } });
  }

  async deleteSession(): Promise<HttpResult> {
    return this.call('DELETE', this.url('session'));
  }
}
