/**
 * The runner's HTTP: one exchange (core/kernel/http-exchange: node:http/https, not Node's global
 * `fetch`, whose first call costs an idle listener ~15 MB of RSS) with the answer read whole.
 * node:zlib is loaded on the first compressed answer only (the runner asks for none; fetch
 * would inflate one).
 */
import type { Readable } from 'node:stream';
import { exchange as httpExchange } from '../../core/kernel/http-exchange/index.js';

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

/** A connection lost before the whole body came (an abort, a dropped socket) is an error, never a short answer. */
export async function exchange(request: TransportRequest): Promise<TransportAnswer> {
  const { signal } = request;
  try {
    const answer = await httpExchange({ method: request.method, url: new URL(request.url), headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }), signal });
    const chunks: Buffer[] = [];
    for await (const chunk of await decoded(answer.body, answer.headers['content-encoding'])) chunks.push(chunk as Buffer);
    return { status: answer.status, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  }
}

async function decoded(body: Readable, contentEncoding: string | undefined): Promise<Readable> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) return body;
  const zlib = await import('node:zlib');
  const inflate = encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
  body.once('error', (error) => inflate.destroy(error));
  return body.pipe(inflate);
}
