/**
 * A forge's REST API behind its circuit breaker: `fetch` for callers that read answers
 * themselves (forge-source's ref, file and archive reads) and `@octokit/request` for the rest
 * (App JWT and installation-token calls), both over the one wrapped `fetch`, so every call svc
 * makes to a forge counts for, and is stopped by, that forge's breaker.
 *
 * While the breaker is open a call throws `UnavailableError` code `forge_unavailable` (503 at
 * svc's edge) saying why and when svc tries the forge again; the forge is not called.
 */
import { request as octokitRequest } from '@octokit/request';
import { packageInfo, SvcError, UnavailableError } from '../kernel/index.js';
import type { Clock, ForgeClient } from '../ports/index.js';
import { BREAKER_PROBE_WINDOW_MS, CircuitBreaker } from './circuit-breaker.js';
import { classifyResponse } from './classify.js';

export const FORGE_API_VERSION = '2022-11-28';
const DEFAULT_TIMEOUT_MS = 30_000;

export interface ForgeClientOptions {
  readonly apiUrl: string;
  readonly clock: Clock;
  readonly breaker: { readonly enabled: boolean; readonly threshold: number };
  /** Applied to calls that bring no `signal` of their own. */
  readonly requestTimeoutMs?: number;
  /** The transport (tests may count calls); global `fetch` by default. */
  readonly fetch?: typeof fetch;
}

function transportProblem(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return typeof cause.message === 'string' ? cause.message : cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** "in 30 s (at 12:00:30Z)" */
function whenAgain(retryAt: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return `in ${seconds} s (at ${new Date(retryAt).toISOString()})`;
}

export function createForgeClient(options: ForgeClientOptions): ForgeClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const breaker = new CircuitBreaker({ clock: options.clock, ...options.breaker });
  const transport = options.fetch ?? fetch;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const forge = `the forge at ${apiUrl}`;

  const guardedFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    // The path only: a query may carry a token (an archive URL), and messages reach logs.
    const what = `${method} ${url.pathname}`;
    const admission = breaker.admit();
    if (!admission.admitted) {
      throw new UnavailableError(`${forge} is unavailable (circuit breaker open: ${admission.reason}); svc tries it again ${whenAgain(admission.retryAt, options.clock.now())}`, {
        code: 'forge_unavailable',
        details: { retryAt: new Date(admission.retryAt).toISOString() },
      });
    }
    const signals: AbortSignal[] = [init.signal ?? AbortSignal.timeout(timeoutMs)];
    if (admission.probe) signals.push(AbortSignal.timeout(BREAKER_PROBE_WINDOW_MS));
    const signal = signals.length === 1 && signals[0] !== undefined ? signals[0] : AbortSignal.any(signals);
    let response: Response;
    try {
      response = await transport(input, { ...init, signal });
    } catch (error) {
      breaker.record({ kind: 'failure', reason: `${what}: ${transportProblem(error)}` }, admission.probe);
      throw error;
    }
    breaker.record(await classifyResponse(response, method, url.pathname, options.clock.now()), admission.probe);
    return response;
  };

  const request = octokitRequest.defaults({
    baseUrl: apiUrl,
    headers: { 'user-agent': `svc/${packageInfo().version}`, 'x-github-api-version': FORGE_API_VERSION },
    request: {
      fetch: guardedFetch,
      // octokit wraps what fetch throws in a RequestError 500; the breaker's own error goes out as itself.
      hook: async (send: typeof octokitRequest, parameters: Parameters<typeof octokitRequest>[0]) => {
        try {
          return await send(parameters);
        } catch (error) {
          const cause = (error as { cause?: unknown }).cause;
          if (cause instanceof SvcError) throw cause;
          throw error;
        }
      },
    },
  });

  return {
    apiUrl,
    fetch: guardedFetch,
    request,
    breaker: () => breaker.snapshot(),
    available: () => breaker.wouldAdmit(),
  };
}
