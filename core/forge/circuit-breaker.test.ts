import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../test/support/manual-clock.js';
import { CircuitBreaker, type CallOutcome } from './circuit-breaker.js';
import { rateLimitWaitMs } from './classify.js';

const failure: CallOutcome = { kind: 'failure', reason: 'GET /x: 502' };
const success: CallOutcome = { kind: 'success' };

function breaker(options: { threshold?: number; enabled?: boolean } = {}) {
  const clock = new ManualClock();
  return { clock, breaker: new CircuitBreaker({ clock, enabled: options.enabled ?? true, threshold: options.threshold ?? 3 }) };
}

/** One admitted call with this outcome. */
function call(b: CircuitBreaker, outcome: CallOutcome): void {
  const admission = b.admit();
  assert.equal(admission.admitted, true);
  b.record(outcome, admission.admitted && admission.probe);
}

describe('forge circuit breaker', () => {
  it('opens after the threshold of consecutive failures, and an answer in between resets the count', () => {
    const { breaker: b } = breaker();
    call(b, failure);
    call(b, failure);
    call(b, success);
    call(b, failure);
    call(b, failure);
    assert.equal(b.snapshot().state, 'closed');
    call(b, failure);
    assert.equal(b.snapshot().state, 'open');
    const refused = b.admit();
    assert.equal(refused.admitted, false);
    assert.match(refused.admitted ? '' : refused.reason, /3 consecutive failures, the last: GET \/x: 502/);
    assert.equal(b.wouldAdmit(), false);
  });

  it('honours SVC_FORGE_BREAKER_THRESHOLD', () => {
    const { breaker: b } = breaker({ threshold: 1 });
    call(b, failure);
    assert.equal(b.snapshot().state, 'open');
  });

  it('half-opens after 30 s, lets one probe through, and closes on its answer', () => {
    const { clock, breaker: b } = breaker();
    for (let i = 0; i < 3; i++) call(b, failure);
    assert.equal(b.snapshot().retryAt, clock.now() + 30_000);
    clock.advance(29_999);
    assert.equal(b.admit().admitted, false);
    clock.advance(1);
    assert.equal(b.snapshot().state, 'half-open');
    assert.equal(b.wouldAdmit(), true);
    const probe = b.admit();
    assert.deepEqual(probe, { admitted: true, probe: true });
    assert.equal(b.admit().admitted, false, 'a second call waits for the probe');
    assert.equal(b.wouldAdmit(), false);
    b.record(success, true);
    assert.equal(b.snapshot().state, 'closed');
    call(b, success);
  });

  it('re-opens on a failed probe with an interval doubling to a 300 s ceiling, and starts again at 30 s after closing', () => {
    const { clock, breaker: b } = breaker();
    for (let i = 0; i < 3; i++) call(b, failure);
    const intervals: number[] = [];
    for (let round = 0; round < 6; round++) {
      const retryAt = b.snapshot().retryAt ?? 0;
      intervals.push(retryAt - clock.now());
      clock.set(retryAt);
      call(b, failure); // the probe
    }
    assert.deepEqual(intervals, [30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    clock.set(b.snapshot().retryAt ?? 0);
    call(b, success);
    for (let i = 0; i < 3; i++) call(b, failure);
    assert.equal((b.snapshot().retryAt ?? 0) - clock.now(), 30_000);
  });

  it('a probe with no outcome for 60 s counts as failed, so another probe follows later', () => {
    const { clock, breaker: b } = breaker();
    for (let i = 0; i < 3; i++) call(b, failure);
    clock.advance(30_000);
    assert.equal(b.admit().admitted, true);
    clock.advance(60_000);
    assert.equal(b.snapshot().state, 'open');
    assert.match(b.snapshot().reason ?? '', /probe had no answer/);
  });

  it('a rate limit opens it at once for the forge\'s wait, bounded to 1 s … 1 h', () => {
    for (const [waitMs, expected] of [
      [120_000, 120_000],
      [10, 1_000],
      [5 * 3_600_000, 3_600_000],
      [undefined, 30_000],
    ] as const) {
      const { clock, breaker: b } = breaker();
      call(b, { kind: 'rate-limited', reason: 'rate-limited (GET /x: 429)', waitMs });
      assert.equal(b.snapshot().state, 'open');
      assert.equal((b.snapshot().retryAt ?? 0) - clock.now(), expected);
    }
  });

  it('off (SVC_FORGE_BREAKER=off) never opens', () => {
    const { breaker: b } = breaker({ enabled: false });
    for (let i = 0; i < 10; i++) call(b, failure);
    call(b, { kind: 'rate-limited', reason: '429', waitMs: 60_000 });
    assert.equal(b.snapshot().state, 'closed');
  });

  it('reads the forge\'s wait from retry-after (seconds or a date), else x-ratelimit-reset', () => {
    const now = Date.UTC(2030, 0, 1);
    assert.equal(rateLimitWaitMs(new Headers({ 'retry-after': '42', 'x-ratelimit-reset': String(now / 1000 + 600) }), now), 42_000);
    assert.equal(rateLimitWaitMs(new Headers({ 'retry-after': new Date(now + 90_000).toUTCString() }), now), 90_000);
    assert.equal(rateLimitWaitMs(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 600) }), now), 600_000);
    assert.equal(rateLimitWaitMs(new Headers({}), now), undefined);
  });
});
