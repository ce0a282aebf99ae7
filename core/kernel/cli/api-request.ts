import type { Readable } from 'node:stream';
import { SvcError, UnavailableError } from '../errors.js';
import { exchange, type HttpAnswer } from '../http-exchange/index.js';
import type { ServerConnection } from './server-connection.js';

/** The server could not be reached at all (nothing listening, DNS, a refused port). */
export class ServerUnreachableError extends UnavailableError {
  readonly baseUrl: string;

  constructor(message: string, baseUrl: string, cause: unknown) {
    super(message, { code: 'server_unreachable', details: { baseUrl }, cause });
    this.baseUrl = baseUrl;
  }
}

/** The server answered with an error: `status` is its HTTP status, `code` its error code. */
export class ServerAnswerError extends SvcError {
  constructor(message: string, status: number, code: string | undefined) {
    super(message, status, 'server_error', code === undefined ? {} : { code });
  }
}

export interface ApiRequestInit {
  /** The body's type when it is not JSON: it is then sent as is (bytes, or a stream read as it comes). */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/** A successful answer: its body is read once, whole (`json()`, `text()`) or as it arrives (`body`). */
export interface ApiResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readable;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/**
 * One request to the server. An unreachable server is a ServerUnreachableError and an error
 * answer a ServerAnswerError, each one line a person can act on (the URL tried, or the server's
 * own message and status). Aborting `init.signal` rejects with its reason, also while the
 * body is read.
 */
export async function apiRequest(connection: ServerConnection, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, init: ApiRequestInit = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${connection.token}`, accept: 'application/json, text/plain, */*' };
  let payload: string | Uint8Array | Readable | undefined;
  if (body !== undefined && init.contentType !== undefined) {
    headers['content-type'] = init.contentType;
    payload = body as string | Uint8Array | Readable;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let answer: HttpAnswer;
  try {
    answer = await exchange({ method, url: new URL(`${connection.baseUrl}${path}`), headers, ...(payload === undefined ? {} : { body: payload }), ...(init.signal === undefined ? {} : { signal: init.signal }) });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ServerUnreachableError(`cannot reach the server at ${connection.baseUrl} (${failureReason(error)}); is \`svc serve\` running there? SVC_URL sets the address`, connection.baseUrl, error);
  }
  if (answer.status >= 200 && answer.status < 300) {
    // An answer without a body still holds its kept-alive socket (and the process) until it is
    // read to its end, which a caller that only wanted the status never does.
    if (answer.status === 204 || answer.status === 205) answer.body.resume();
    return { status: answer.status, headers: answer.headers, body: answer.body, text: answer.text, json: async () => JSON.parse(await answer.text()) as unknown };
  }
  const text = await answer.text();
  let message = text.trim() || answer.statusText;
  let code: string | undefined;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
    if (typeof parsed.code === 'string') code = parsed.code;
  } catch {
    // not JSON: keep the text
  }
  if (answer.status === 401) message += '; check SVC_TOKEN (or SVC_SYSTEM_TOKEN)';
  throw new ServerAnswerError(`${message} (HTTP ${answer.status})`, answer.status, code);
}

/** The socket error's code (`ECONNREFUSED`, `ENOTFOUND`, a certificate's), or what OpenSSL said when that is only `EPROTO`. */
function failureReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  // e.g. `write EPROTO 80..:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:...` (an https URL on a plain http port).
  const openssl = code === 'EPROTO' ? /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] : undefined;
  if (openssl !== undefined) return `TLS: ${openssl}`;
  return code ?? message;
}
