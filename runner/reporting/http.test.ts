import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpSend, HttpStatusError, type FetchLike, type HttpOptions } from './http.js';

/** A fetch that fails with `failure` `count` times, then answers 200. */
function flaky(count: number, failure: () => Response | Error): { fetch: FetchLike; calls: () => number } {
  let calls = 0;
  return {
    fetch: async () => {
      calls += 1;
      if (calls > count) return new Response('{"ok":true}', { status: 200 });
      const outcome = failure();
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    calls: () => calls,
  };
}

const options = (fetch: FetchLike, extra: Partial<HttpOptions> = {}): HttpOptions => ({ fetch, token: 't', timeoutMs: 5_000, userAgent: 'test', retryDelayMs: 1, ...extra });
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });

describe('the reporter HTTP through an outage of the server', () => {
  it('keeps retrying while the server refuses connections (a restart), far beyond 3 attempts', async () => {
    const server = flaky(12, refused);
    const answer = await httpSend(options(server.fetch), { method: 'PATCH', url: 'http://svc.test/records', json: {} });
    assert.equal(answer.status, 200);
    assert.equal(server.calls(), 13);
  });

  it('keeps retrying 502, 503 and 504 (a gateway in front of a restarting server)', async () => {
    let status = 501;
    const server = flaky(9, () => new Response('down', { status: (status = status === 504 ? 502 : status + 1) }));
    assert.equal((await httpSend(options(server.fetch), { method: 'POST', url: 'http://svc.test/logs', json: {} })).status, 200);
    assert.equal(server.calls(), 10);
  });

  it('gives up once the server has been unreachable for the outage bound', async () => {
    const server = flaky(Number.POSITIVE_INFINITY, refused);
    await assert.rejects(httpSend(options(server.fetch, { outageMs: 30 }), { method: 'POST', url: 'http://svc.test/events', json: {} }), /fetch failed/);
    assert.ok(server.calls() > 1);
  });

  it('still stops after 3 attempts on a 500 and at once on a 4xx', async () => {
    const broken = flaky(Number.POSITIVE_INFINITY, () => new Response('bug', { status: 500 }));
    await assert.rejects(httpSend(options(broken.fetch), { method: 'POST', url: 'http://svc.test/a' }), (error) => error instanceof HttpStatusError && error.status === 500);
    assert.equal(broken.calls(), 3);
    const refusedAuth = flaky(Number.POSITIVE_INFINITY, () => new Response('no', { status: 401 }));
    await assert.rejects(httpSend(options(refusedAuth.fetch), { method: 'POST', url: 'http://svc.test/a' }), (error) => error instanceof HttpStatusError && error.status === 401);
    assert.equal(refusedAuth.calls(), 1);
  });

  it('makes one attempt when the call asks for one', async () => {
    const server = flaky(1, refused);
    await assert.rejects(httpSend(options(server.fetch), { method: 'POST', url: 'http://svc.test/feed', attempts: 1 }), /fetch failed/);
    assert.equal(server.calls(), 1);
  });
});
