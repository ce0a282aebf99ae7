/**
 * One HTTP exchange over node:http/https. The listener does not use Node's global `fetch`: its
 * first call loads the bundled undici, which costs a listener that sits idle on a long poll
 * ~15 MB of RSS (npm run bench:runner); node:https (TLS) is loaded on the first https URL only,
 * node:zlib on the first compressed answer (the runner asks for none; fetch would inflate one).
 * Keep-alive comes from the global agents (on since Node 19).
 */
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Readable } from 'node:stream';

export interface TransportRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting destroys the exchange; the promise rejects with the signal's reason. */
  readonly signal: AbortSignal;
}

export interface TransportAnswer {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

type Send = (url: URL, options: RequestOptions) => ClientRequest;
let httpsSend: Promise<Send> | undefined;

async function sender(url: URL): Promise<Send> {
  if (url.protocol === 'http:') return httpRequest;
  if (url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol} in ${url.href}`);
  httpsSend ??= import('node:https').then((https) => https.request);
  return httpsSend;
}

export async function exchange(request: TransportRequest): Promise<TransportAnswer> {
  const url = new URL(request.url);
  const send = await sender(url);
  return new Promise<TransportAnswer>((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body, 'utf8');
    const outgoing = send(url, { method: request.method, headers });
    const onAbort = () => outgoing.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    const fail = (error: unknown) => {
      done();
      reject(signal.aborted ? signal.reason : error);
    };
    outgoing.once('error', fail);
    outgoing.once('response', (response) => void answer(response));
    const answer = async (response: IncomingMessage) => {
      response.once('error', fail);
      // The connection gone before the whole body came (an abort, a dropped socket): an error, never a short answer.
      response.once('close', () => {
        if (!response.complete) fail(new Error('the connection closed before the answer was complete'));
      });
      let body: Readable;
      try {
        body = await decoded(response);
      } catch (error) {
        response.destroy();
        fail(error);
        return;
      }
      const chunks: Buffer[] = [];
      body.on('data', (chunk: Buffer) => chunks.push(chunk));
      body.once('error', fail);
      body.once('end', () => {
        done();
        resolve({ status: response.statusCode ?? 0, headers: flatten(response.headers), text: Buffer.concat(chunks).toString('utf8') });
      });
    };
    outgoing.end(request.body);
  });
}

async function decoded(response: IncomingMessage): Promise<Readable> {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) return response;
  const zlib = await import('node:zlib');
  const inflate = encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
  return response.pipe(inflate);
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
