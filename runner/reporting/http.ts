/**
 * The reporter's HTTP: the job token as Bearer, JSON or octet-stream bodies, a timeout per
 * request, and the runner's transport retry: 3 attempts on a 500; while the server is unreachable
 * (connection refused or reset, no answer, 502/503/504: a control plane restarting, a proxy in
 * front of it) attempts go on with back-off (1 s doubling to 5 s) for up to `outageMs` (15
 * minutes), so a brief outage of the control plane does not fail the job. A non-2xx
 * answer is an HttpStatusError carrying the status and the body, so callers can read the
 * server's error envelope (VSS `typeKey`, run-service `statusCode`).
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  readonly status: number;
  readonly body: string;

  constructor(method: string, url: string, status: number, body: string) {
    super(`${method} ${redact(url)} answered ${status}${body === '' ? '' : `: ${body.slice(0, 300)}`}`);
    this.status = status;
    this.body = body;
  }

  /** The body as JSON, or undefined. */
  json(): unknown {
    try {
      return JSON.parse(this.body) as unknown;
    } catch {
      return undefined;
    }
  }
}

export interface HttpOptions {
  readonly fetch: FetchLike;
  readonly token: string;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** Pause before a transport retry (tests shorten it). */
  readonly retryDelayMs?: number;
  /** How long an unreachable server is retried before the call fails (default 15 minutes). */
  readonly outageMs?: number;
}

export interface HttpCall {
  readonly method: string;
  readonly url: string;
  readonly json?: unknown;
  readonly bytes?: Buffer;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send the job token (false for signed blob URLs). Default true. */
  readonly auth?: boolean;
  /** Transport attempts on a 500 (default 3); `1` also means no retry while the server is unreachable. */
  readonly attempts?: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

/** Answers of a server that is not there right now (a gateway's, a restarting server's). */
const UNREACHABLE = new Set([502, 503, 504]);

export const DEFAULT_OUTAGE_MS = 15 * 60_000;

export async function httpSend(options: HttpOptions, call: HttpCall): Promise<HttpAnswer> {
  const attempts = call.attempts ?? 3;
  const base = options.retryDelayMs ?? 1_000;
  const outageMs = options.outageMs ?? DEFAULT_OUTAGE_MS;
  let failures = 0;
  let unreachableSince: number | undefined;
  for (;;) {
    try {
      return await once(options, call);
    } catch (error) {
      failures += 1;
      const unreachable = !(error instanceof HttpStatusError) || UNREACHABLE.has(error.status);
      if (unreachable && attempts > 1) {
        unreachableSince ??= Date.now();
        if (Date.now() - unreachableSince >= outageMs) throw error;
      } else {
        unreachableSince = undefined;
        if (!(error instanceof HttpStatusError && error.status === 500) || failures >= attempts) throw error;
      }
      await delay(Math.min(base * 2 ** Math.min(failures - 1, 10), base * 5));
    }
  }
}

/** The answer's JSON (undefined for an empty body). */
export function answerJson(answer: HttpAnswer): unknown {
  if (answer.text.trim() === '') return undefined;
  return JSON.parse(answer.text) as unknown;
}

async function once(options: HttpOptions, call: HttpCall): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'application/json', ...call.headers };
  if (call.auth !== false) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers['content-type'] = 'application/json; charset=utf-8';
  } else if (call.bytes !== undefined) {
    body = call.bytes;
    headers['content-type'] = call.contentType ?? 'application/octet-stream';
  }
  const response = await options.fetch(call.url, {
    method: call.method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new HttpStatusError(call.method, call.url, response.status, text);
  return { status: response.status, text };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A URL without its query (signed URLs carry their signature there). */
function redact(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? url : `${url.slice(0, index)}?…`;
}
