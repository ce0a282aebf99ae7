import { sleep } from './backoff.js';
import { RunnerHttpError, RunnerNetworkError, RunnerProtocolError } from './http-error.js';
import { exchange, type TransportAnswer } from './http-transport.js';
import type { RunnerIdentity } from './runner-identity.js';

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sent with the runner's `application/json; charset=utf-8` content type). */
  readonly json?: unknown;
  /** A form body (`application/x-www-form-urlencoded`). */
  readonly form?: Readonly<Record<string, string>>;
  /** Per attempt; the runner's VSS and raw clients use 100 s (§0.3). */
  readonly timeoutMs?: number;
  /** The caller's cancellation; an aborted request rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Attempts on transport failures and 502/503/504 (the runner's transport retry, §0.3). Default 1. */
  readonly attempts?: number;
}

export interface HttpAnswer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined for an empty body (the runner's "no message"). */
  readonly body: unknown;
  readonly text: string;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 100_000;
const RETRIED_STATUSES = new Set([502, 503, 504]);

/**
 * The runner's HTTP conventions over node:http (http-transport.ts; RUNNER-PROTOCOL.md §0.3): its User-Agent and
 * Accept headers, JSON bodies, "an empty 2xx body is null", "a non-empty 2xx body must be JSON",
 * per-request timeouts and the transport retry.
 */
export class HttpClient {
  constructor(
    readonly identity: RunnerIdentity,
    private readonly retryDelayMs = 1000,
  ) {}

  /** Sends and answers whatever status came back; throws only when there was no answer. */
  async send(request: HttpRequest): Promise<HttpAnswer> {
    const attempts = Math.max(1, request.attempts ?? 1);
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.#once(request);
        if (attempt < attempts && RETRIED_STATUSES.has(answer.status)) {
          await sleep(this.retryDelayMs * attempt, request.signal);
          continue;
        }
        return answer;
      } catch (error) {
        if (request.signal?.aborted || !(error instanceof RunnerNetworkError) || attempt >= attempts) throw error;
        await sleep(this.retryDelayMs * attempt, request.signal);
      }
    }
  }

  /** Sends and throws RunnerHttpError for any non-2xx answer. */
  async call(request: HttpRequest): Promise<HttpAnswer> {
    const answer = await this.send(request);
    if (answer.status < 200 || answer.status > 299) throw new RunnerHttpError(request.method, request.url, answer.status, answer.body, answer.text);
    return answer;
  }

  async #once(request: HttpRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = {
      'user-agent': this.identity.userAgent,
      accept: 'application/json;api-version=6.0-preview',
      ...request.headers,
    };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8; api-version=6.0-preview';
      body = JSON.stringify(request.json);
    } else if (request.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    const timeout = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
    const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
    let response: TransportAnswer;
    try {
      response = await exchange({ method: request.method, url: request.url, headers, signal, ...(body === undefined ? {} : { body }) });
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      throw new RunnerNetworkError(request.method, request.url, timeout.aborted ? new Error(`timed out after ${request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS} ms`) : error);
    }
    const { status, text } = response;
    return { status, headers: response.headers, text, body: parseBody(request, response) };
  }
}

function parseBody(request: HttpRequest, response: TransportAnswer): unknown {
  const { text } = response;
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (content.trim() === '') return undefined;
  const type = response.headers['content-type'] ?? '';
  const ok = response.status >= 200 && response.status <= 299;
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    if (ok) throw new RunnerProtocolError(`${request.method} ${request.url} answered ${response.status} with Content-Type '${type}', not JSON`);
    return undefined;
  }
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    if (ok) throw new RunnerProtocolError(`${request.method} ${request.url} answered ${response.status} with malformed JSON: ${(error as Error).message}`);
    return undefined;
  }
}
