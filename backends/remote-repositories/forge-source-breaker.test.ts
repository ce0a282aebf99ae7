import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createForgeClients } from '../../core/forge/index.js';
import { startForgeSimulator } from '../../test/support/forge-simulator/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { createForgeSource } from './forge-source.js';

const DOCS = 'https://docs.github.com/rest';

async function setup(t: TestContext, breaker = { enabled: true, threshold: 3 }) {
  const forge = await startForgeSimulator(t, { token: 'ghp_test' });
  const sha = await forge.repositories.create('acme/tool', { files: { 'action.yml': 'name: tool\n' }, tags: ['v1'] });
  const clock = new ManualClock();
  const client = createForgeClients({ defaultApiUrl: forge.apiUrl, clock, breaker }).forApi();
  // Ref answers are cached; none here, so every resolve asks the forge.
  const source = createForgeSource({ client, token: 'ghp_test', clock, refCacheMs: 0, missingRefCacheMs: 0 });
  return { forge, sha, clock, client, source };
}

describe('forge source behind the circuit breaker', () => {
  it('three failing reads open it; reads then fail fast naming when svc retries; after 30 s one probe closes it', async (t) => {
    const { forge, sha, clock, client, source } = await setup(t);
    forge.failFromNow('repos/get-commit', { status: 500, json: { message: 'Server Error', documentation_url: DOCS } });
    for (let i = 0; i < 3; i++) await assert.rejects(source.resolve('acme/tool', 'v1'), { status: 502, code: 'forge_failed' });
    assert.equal(client.breaker().state, 'open');
    const asked = forge.count();
    await assert.rejects(source.resolve('acme/tool', 'v1'), {
      status: 503,
      code: 'forge_unavailable',
      message: /^the forge at .* is unavailable \(circuit breaker open: 3 consecutive failures, the last: GET \/repos\/acme\/tool\/commits\/v1: 500\); svc tries it again in 30 s/,
    });
    await assert.rejects(source.readFile('acme/tool', sha, 'action.yml'), { code: 'forge_unavailable' });
    assert.equal(forge.count(), asked, 'nothing reached the forge while open');

    forge.recover();
    clock.advance(30_000);
    assert.deepEqual(await source.resolve('acme/tool', 'v1'), { sha });
    assert.equal(client.breaker().state, 'closed');
    assert.equal(await source.readFile('acme/tool', sha, 'action.yml'), 'name: tool\n');
  });

  it('a 404 or a missing ref is an answer: it neither counts as a failure nor keeps a probe from closing it', async (t) => {
    const { forge, sha, clock, client, source } = await setup(t);
    forge.failNext('repos/get-commit', { status: 503, json: { message: 'Unavailable' } }, 2);
    for (let i = 0; i < 2; i++) await assert.rejects(source.resolve('acme/tool', 'v1'), { status: 503 });
    assert.ok('missing' in (await source.resolve('acme/tool', 'no-such-tag')));
    assert.equal(await source.readFile('acme/tool', sha, 'nope.yml'), undefined);
    forge.failNext('repos/get-commit', { status: 503, json: { message: 'Unavailable' } }, 3);
    for (let i = 0; i < 2; i++) await assert.rejects(source.resolve('acme/tool', 'v1'), { status: 503 });
    assert.equal(client.breaker().state, 'closed', 'the 422 and the 404 in between reset the count');
    await assert.rejects(source.resolve('acme/tool', 'v1'), { status: 503 });
    assert.equal(client.breaker().state, 'open');
    clock.advance(30_000);
    assert.ok('missing' in (await source.resolve('acme/tool', 'no-such-tag')), 'the probe got a 422');
    assert.equal(client.breaker().state, 'closed');
  });

  it('a primary rate limit (403, x-ratelimit-remaining 0) opens it at once until x-ratelimit-reset', async (t) => {
    const { forge, sha, clock, client, source } = await setup(t);
    const reset = Math.floor(clock.now() / 1000) + 120;
    forge.failNext('repos/get-content', {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '5000', 'x-ratelimit-reset': String(reset) },
      json: { message: 'API rate limit exceeded for installation ID 1.', documentation_url: DOCS },
    });
    await assert.rejects(source.readFile('acme/tool', sha, 'action.yml'), { status: 503, code: 'forge_rate_limited' });
    assert.equal(client.breaker().state, 'open');
    assert.equal(client.breaker().retryAt, reset * 1000);
    await assert.rejects(source.resolve('acme/tool', 'v1'), { code: 'forge_unavailable', message: /rate-limited \(GET \/repos\/acme\/tool\/contents\/action\.yml: 403\).*in 120 s/ });
    clock.set(reset * 1000);
    assert.equal(await source.readFile('acme/tool', sha, 'action.yml'), 'name: tool\n');
    assert.equal(client.breaker().state, 'closed');
  });

  it('a secondary rate limit (403 with its message, no headers) opens it at once; an ordinary 403 does not', async (t) => {
    const { forge, sha, client, source } = await setup(t);
    forge.failNext('repos/get-content', { status: 403, json: { message: 'Resource not accessible by integration', documentation_url: DOCS } });
    await assert.rejects(source.readFile('acme/tool', sha, 'action.yml'), { status: 502 });
    assert.equal(client.breaker().state, 'closed');
    forge.failNext('repos/get-content', { status: 403, json: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: DOCS } });
    await assert.rejects(source.readFile('acme/tool', sha, 'action.yml'));
    assert.equal(client.breaker().state, 'open');
  });

  it('SVC_FORGE_BREAKER=off: failures never stop reads', async (t) => {
    const { forge, sha, client, source } = await setup(t, { enabled: false, threshold: 3 });
    forge.failNext('repos/get-commit', { status: 500, json: { message: 'Server Error', documentation_url: DOCS } }, 5);
    for (let i = 0; i < 5; i++) await assert.rejects(source.resolve('acme/tool', 'v1'), { status: 502 });
    assert.deepEqual(await source.resolve('acme/tool', 'v1'), { sha });
    assert.equal(client.breaker().state, 'closed');
  });
});
