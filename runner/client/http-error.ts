import { BROKER_ERROR_SOURCE, RUN_SERVICE_ERROR_SOURCE } from '../../core/protocol/index.js';

/**
 * A non-2xx answer, with what the runner reads from its body (RUNNER-PROTOCOL.md §0.4): the
 * class of a VSS wrapped exception (`typeKey`, or the class named in `typeName`) and its
 * `errorCode`, a broker `errorKind`, a run-service `statusCode`, an OAuth `error`. Only these
 * change the runner's behaviour (§2.9); anything else is a generic, retried failure.
 */
export class RunnerHttpError extends Error {
  override readonly name = 'RunnerHttpError';
  /** The exception class of a VSS wrapped exception, e.g. `TaskAgentSessionConflictException`. */
  readonly vssException: string | undefined;
  readonly vssErrorCode: number | undefined;
  /** `errorKind` of an `actions-broker-listener` error body. */
  readonly brokerErrorKind: string | undefined;
  /** `statusCode` of an `actions-run-service` error body (it decides, not the HTTP status). */
  readonly runServiceStatus: number | undefined;
  /** `error` of an OAuth token error (`invalid_client`, ...). */
  readonly oauthError: string | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: unknown,
    readonly text: string,
  ) {
    super(`${method} ${redactUrl(url)} answered ${status}${describeBody(body, text)}`);
    const fields = isRecord(body) ? body : {};
    this.vssException = vssExceptionName(fields);
    this.vssErrorCode = typeof fields['errorCode'] === 'number' ? fields['errorCode'] : undefined;
    this.brokerErrorKind = fields['source'] === BROKER_ERROR_SOURCE && typeof fields['errorKind'] === 'string' ? fields['errorKind'] : undefined;
    this.runServiceStatus = fields['source'] === RUN_SERVICE_ERROR_SOURCE && typeof fields['statusCode'] === 'number' ? fields['statusCode'] : undefined;
    this.oauthError = typeof fields['error'] === 'string' ? fields['error'] : undefined;
  }

  /** True for a VSS exception of this class (typeKey or typeName). */
  isVss(name: string): boolean {
    return this.vssException === name;
  }
}

/** A transport failure (no answer): refused, reset, timed out. */
export class RunnerNetworkError extends Error {
  override readonly name = 'RunnerNetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${redactUrl(url)} failed: ${causeText(cause)}`, { cause });
  }
}

/** The server answered 2xx with something the runner cannot use. */
export class RunnerProtocolError extends Error {
  override readonly name = 'RunnerProtocolError';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function vssExceptionName(fields: Record<string, unknown>): string | undefined {
  if (typeof fields['typeKey'] === 'string' && fields['typeKey'] !== '') return fields['typeKey'];
  if (typeof fields['typeName'] !== 'string') return undefined;
  // `GitHub.DistributedTask.WebApi.TaskAgentNotFoundException, GitHub.DistributedTask.WebApi, ...`
  const qualified = fields['typeName'].split(',')[0] ?? '';
  return qualified.split('.').pop() || undefined;
}

function describeBody(body: unknown, text: string): string {
  if (isRecord(body)) {
    for (const key of ['message', 'errorMessage', 'error_description', 'error']) {
      const value = body[key];
      if (typeof value === 'string' && value !== '') return `: ${value}`;
    }
  }
  const trimmed = text.trim();
  return trimmed === '' ? '' : `: ${trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed}`;
}

/** The cause's own words: `fetch failed` hides them in `cause` (ECONNREFUSED, ENOTFOUND, ...). */
export function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: unknown }).code;
    return typeof code === 'string' && !inner.message.includes(code) ? `${code} (${inner.message})` : inner.message;
  }
  if (cause.name === 'TimeoutError') return 'timed out';
  return cause.message;
}

/** Query strings can carry session ids; they are not secrets, but tokens never travel there. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
