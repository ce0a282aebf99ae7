/**
 * What an answer from the forge means for its breaker: 5xx is a failure; 429, and 403 with
 * `x-ratelimit-remaining: 0`, a `retry-after` or GitHub's secondary-limit message, is a rate limit
 * with the forge's wait (`retry-after` seconds, else the `x-ratelimit-reset` epoch); everything
 * else, ordinary 4xx included, is an answer (success for the breaker).
 */
import type { CallOutcome } from './circuit-breaker.js';

const SECONDARY_LIMIT = /secondary rate limit|abuse detection/i;

/** The forge's own wait in ms, from `retry-after` (seconds or an HTTP date), else `x-ratelimit-reset` (epoch seconds). */
export function rateLimitWaitMs(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset !== undefined && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

/** Whether the 403 is a rate limit; reads the body only when the headers do not say (a clone, so the caller still has it). */
async function isRateLimit403(response: Response, now: number): Promise<boolean> {
  if (response.headers.get('x-ratelimit-remaining') === '0') return true;
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && rateLimitWaitMs(response.headers, now) !== undefined) return true;
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  return SECONDARY_LIMIT.test(text);
}

export async function classifyResponse(response: Response, method: string, path: string, now: number): Promise<CallOutcome> {
  const what = `${method} ${path}: ${response.status}`;
  if (response.status === 429 || (response.status === 403 && (await isRateLimit403(response, now)))) {
    return { kind: 'rate-limited', reason: `rate-limited (${what})`, waitMs: rateLimitWaitMs(response.headers, now) };
  }
  if (response.status >= 500) return { kind: 'failure', reason: what };
  return { kind: 'success' };
}
