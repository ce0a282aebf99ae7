import { SvcError, UnavailableError } from '../errors.js';
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

export interface ApiFetchInit {
  /** JSON-serialised unless `contentType` says the body is already bytes or a stream. */
  readonly body?: unknown;
  /** The body's type when it is not JSON (it is then sent as is, streamed when a ReadableStream). */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/**
 * One request to the server. An unreachable server is a ServerUnreachableError and an error
 * answer a ServerAnswerError, each one line a person can act on (the URL tried, or the server's
 * own message and status).
 */
export async function apiRequest(connection: ServerConnection, method: 'GET' | 'POST', path: string, body?: unknown, init: Omit<ApiFetchInit, 'body'> = {}): Promise<Response> {
  const url = `${connection.baseUrl}${path}`;
  let response: Response;
  try {
    const headers: Record<string, string> = { authorization: `Bearer ${connection.token}`, accept: 'application/json, text/plain, */*' };
    const request: RequestInit & { duplex?: 'half' } = { method, headers, ...(init.signal === undefined ? {} : { signal: init.signal }) };
    if (body !== undefined && init.contentType !== undefined) {
      headers['content-type'] = init.contentType;
      request.body = body as NonNullable<RequestInit['body']>;
      // A streamed body needs half-duplex (Node's fetch refuses it otherwise).
      if (body instanceof ReadableStream) request.duplex = 'half';
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      request.body = JSON.stringify(body);
    }
    response = await fetch(url, request);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    if (why === 'bad port') {
      // fetch refuses the ports browsers block (6000, 6665-6669, ...), whatever listens there.
      throw new ServerUnreachableError(`cannot talk to ${connection.baseUrl}: its port is one HTTP clients refuse; serve on another port (SVC_LISTEN) and set SVC_URL`, connection.baseUrl, error);
    }
    throw new ServerUnreachableError(`cannot reach the server at ${connection.baseUrl} (${why}); is \`svc serve\` running there? SVC_URL sets the address`, connection.baseUrl, error);
  }
  if (response.ok) return response;
  const text = await response.text();
  let message = text.trim() || response.statusText;
  let code: string | undefined;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
    if (typeof parsed.code === 'string') code = parsed.code;
  } catch {
    // not JSON: keep the text
  }
  if (response.status === 401) message += '; check SVC_TOKEN (or SVC_SYSTEM_TOKEN)';
  throw new ServerAnswerError(`${message} (HTTP ${response.status})`, response.status, code);
}
