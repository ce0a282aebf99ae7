/**
 * HTTP over node:http/https rather than Node's global `fetch`: fetch's first use compiles the
 * bundled undici, 30–40 ms of CPU on every CLI command and ~15 MB of RSS in an idle runner
 * listener (npm run bench:runner). node:https (TLS) is loaded on the first https URL only.
 * Keep-alive comes from the global agents (on since Node 19), so sequential requests share a
 * connection; an idle kept-alive socket does not hold the process open. No proxy support:
 * fetch honoured none either.
 */
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Readable } from 'node:stream';

export interface HttpRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** A string or bytes are sent with a length; a stream is sent chunked as it is read (the caller owns it and destroys it on failure). */
  readonly body?: string | Uint8Array | Readable;
  /** Aborting destroys the exchange, before or after the answer came; what waits on it rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body as it arrives. A connection lost before its end makes it fail (an `ECONNRESET`
   * error), never end short; reading it is the caller's business (or `text()`).
   */
  readonly body: Readable;
  /** The whole body as UTF-8. */
  text(): Promise<string>;
}

type Send = (url: URL, options: RequestOptions) => ClientRequest;
let httpsSend: Promise<Send> | undefined;

function sender(url: URL): Send | Promise<Send> {
  if (url.protocol === 'http:') return httpRequest;
  if (url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol} in ${url.href}`);
  httpsSend ??= import('node:https').then((https) => https.request);
  return httpsSend;
}

/**
 * Sends one request; resolves once the answer's status and headers are in (any status: telling
 * errors apart is the caller's). Rejects with the socket's error (`ECONNREFUSED`, `ENOTFOUND`, a
 * reset, a TLS failure) or the abort signal's reason.
 */
export async function exchange(request: HttpRequest): Promise<HttpAnswer> {
  const send = await sender(request.url);
  const { signal, body } = request;
  signal?.throwIfAborted();
  return new Promise<HttpAnswer>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (typeof body === 'string') headers['content-length'] = Buffer.byteLength(body, 'utf8');
    else if (body instanceof Uint8Array) headers['content-length'] = body.byteLength;
    const outgoing = send(request.url, { method: request.method, headers });
    let answer: IncomingMessage | undefined;
    const onAbort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new Error(String(signal?.reason));
      // Once the answer is in, its body is what the caller reads: failing it ends the read.
      if (answer) answer.destroy(reason);
      outgoing.destroy(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = () => signal?.removeEventListener('abort', onAbort);
    // `on`, not `once`: a socket may fail again after the first error, and an 'error' without a listener ends the process.
    outgoing.on('error', (error) => {
      release();
      // After the answer, a request-side error (the server closed while a streamed body was
      // still being sent) is the body's business or nobody's; before it, the exchange failed.
      if (answer === undefined) reject(signal?.aborted ? signal.reason : error);
    });
    outgoing.once('response', (response: IncomingMessage) => {
      answer = response;
      response.once('close', release);
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: flatten(response.headers),
        body: response,
        text: () => readText(response),
      });
    });
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      outgoing.end(body);
      return;
    }
    // Not pipeline(): it would destroy the caller's stream with the request's error, and its
    // writer (the packer) would then fail too, hiding that the server was the problem.
    body.once('error', (error) => outgoing.destroy(error));
    outgoing.once('error', () => body.unpipe(outgoing));
    body.pipe(outgoing);
  });
}

async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
