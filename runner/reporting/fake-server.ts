/**
 * Test support for the reporters' unit tests (not used by the reporters): a `fetch` that answers
 * like a server and records each call.
 */
import type { FetchLike } from './http.js';

export interface RecordedCall {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  json(): unknown;
}

export type FakeRoute = (call: RecordedCall) => { status?: number; json?: unknown; text?: string } | undefined;

export class FakeServer {
  readonly calls: RecordedCall[] = [];
  readonly #routes: FakeRoute[] = [];

  route(handler: FakeRoute): this {
    this.#routes.push(handler);
    return this;
  }

  get fetch(): FetchLike {
    return async (input, init) => {
      const body = init.body === undefined || init.body === null ? Buffer.alloc(0) : Buffer.from(init.body as string | Uint8Array);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[key.toLowerCase()] = value;
      const call: RecordedCall = {
        method: init.method ?? 'GET',
        url: new URL(input),
        headers,
        body,
        json: () => JSON.parse(body.toString('utf8')) as unknown,
      };
      this.calls.push(call);
      for (const route of this.#routes) {
        const answer = route(call);
        if (answer === undefined) continue;
        const text = answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json));
        return new Response(text === '' ? null : text, { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
      }
      return new Response('{"message":"no route"}', { status: 404, headers: { 'content-type': 'application/json' } });
    };
  }

  /** Calls whose path ends with `suffix` (and, optionally, of this method). */
  find(suffix: string | RegExp, method?: string): RecordedCall[] {
    return this.calls.filter(
      (call) => (typeof suffix === 'string' ? call.url.pathname.endsWith(suffix) : suffix.test(call.url.pathname)) && (method === undefined || call.method === method),
    );
  }
}
