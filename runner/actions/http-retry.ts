/**
 * HTTP for action resolution and download, with the runner's retry rule: up to 3 attempts on
 * network errors and 5xx, none on a 4xx (an unresolvable or forbidden action stays so) nor on a
 * 501 (the server cannot serve actions at all), a pause between attempts (the runner's 10–30 s;
 * tests shorten it).
 */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpSettings {
  readonly fetch: FetchLike;
  /** Pause before the 2nd attempt; the 3rd waits twice as long. */
  readonly retryDelayMs: number;
  readonly attempts: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Resolution or download failed; the message is for the step's log. `unsupported` marks what
 * svc cannot do at all here (no job server given to the resolver, a server without any action
 * source): the step fails as not implemented rather than the whole job.
 */
export class ActionResolveError extends Error {
  override readonly name = 'ActionResolveError';
  readonly unsupported: boolean;

  constructor(message: string, options: ErrorOptions & { readonly unsupported?: boolean } = {}) {
    super(message, options);
    this.unsupported = options.unsupported === true;
  }
}

/** The `message` of an error body (VSS `{message}`, svc `{code, message}`), or the text itself, shortened. */
export function describeFailure(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
  } catch {
    // Not JSON.
  }
  return body.trim().slice(0, 300);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

export async function fetchWithRetry(http: HttpSettings, url: string, init: RequestInit): Promise<Response> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= http.attempts; attempt++) {
    if (http.signal?.aborted) break;
    try {
      const signals = [AbortSignal.timeout(http.timeoutMs), ...(http.signal === undefined ? [] : [http.signal])];
      const response = await http.fetch(url, { ...init, signal: AbortSignal.any(signals) });
      // 501 is not transient: the server has no way to serve this at all (svc: no action source).
      if (response.status < 500 || response.status === 501 || attempt === http.attempts) return response;
      lastError = new ActionResolveError(`${init.method ?? 'GET'} ${new URL(url).pathname} answered ${response.status}`);
      await response.body?.cancel();
    } catch (error) {
      lastError = error;
      if (attempt === http.attempts) break;
    }
    await pause(http.retryDelayMs * attempt, http.signal);
  }
  if (http.signal?.aborted) throw new ActionResolveError('The operation was canceled.');
  const cause = lastError as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const reason = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? String(lastError);
  throw new ActionResolveError(`${init.method ?? 'GET'} ${safeUrl(url)} failed after ${http.attempts} attempts: ${reason}`, { cause: lastError });
}

/** A URL without its query (signed URLs carry their signature there). */
export function safeUrl(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? url : `${url.slice(0, index)}?…`;
}
