import type { Readable } from 'node:stream';
import { apiRequest, ServerUnreachableError, type ServerConnection } from '../../../core/kernel/cli/index.js';
import { TERMINAL_STATUSES, type FeedEvent } from './wire-types.js';

export interface FeedLine {
  /** The line exactly as the server sent it (without its newline). */
  readonly raw: string;
  readonly event: FeedEvent;
}

export interface FollowFeedOptions {
  readonly signal: AbortSignal;
  /** Told when the feed dropped before the run ended and is being opened again. */
  readonly onReconnect?: (attempt: number, why: string) => void;
  /** Waits between reconnection attempts (injectable so tests need not sleep). */
  readonly pause?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long the server may stay unreachable before following gives up; default 60 s. */
  readonly giveUpMs?: number;
  readonly now?: () => number;
}

/**
 * The run's event feed (`GET /api/v1/runs/{id}/events.ndjson`) until the run is terminal,
 * opened again whenever it ends early (a dropped connection, the server's idle close, a
 * restart). Each opening starts with a snapshot that repeats what was already sent, so lines
 * seen on an earlier connection are left out (log lines are never repeated by the server and
 * always pass). Ends with the feed that carried a terminal `run_status`; throws ServerUnreachableError when
 * the server stays unreachable for `giveUpMs`.
 */
export async function* followFeed(connection: ServerConnection, runId: number, options: FollowFeedOptions): AsyncGenerator<FeedLine> {
  const seen = new Set<string>();
  const now = options.now ?? Date.now;
  const pause = options.pause ?? sleep;
  const giveUpMs = options.giveUpMs ?? 60_000;
  let failingSince: number | undefined;
  let terminal = false;
  for (let attempt = 0; ; attempt++) {
    const earlier = new Set(seen);
    let why = 'the feed ended before the run did';
    try {
      const response = await apiRequest(connection, 'GET', `/api/v1/runs/${runId}/events.ndjson`, undefined, { signal: options.signal });
      failingSince = undefined;
      for await (const raw of lines(response.body)) {
        const event = JSON.parse(raw) as FeedEvent;
        if (event.type !== 'log') {
          if (earlier.has(raw)) continue;
          seen.add(raw);
        }
        if (event.type === 'run_status' && TERMINAL_STATUSES.has(event.status)) terminal = true;
        yield { raw, event };
      }
      // The server ends the feed once the run is terminal, after the lines that say so.
      if (terminal) return;
    } catch (error) {
      if (options.signal.aborted) throw error;
      // An answer (404, 401) will not change by asking again; a lost connection may.
      if (!(error instanceof ServerUnreachableError) && !isNetworkError(error)) throw error;
      // A cut connection says only `aborted`: its code says more.
      why = error instanceof ServerUnreachableError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      failingSince ??= now();
      if (now() - failingSince >= giveUpMs) {
        throw new ServerUnreachableError(`lost the server at ${connection.baseUrl} while following run ${runId} (${why})`, connection.baseUrl, error);
      }
    }
    options.onReconnect?.(attempt + 1, why);
    await pause(Math.min(5000, 500 * 2 ** Math.min(attempt, 4)), options.signal);
  }
}

/** The body's lines, as they arrive (a partial last line waits for the rest). */
async function* lines(body: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.decode(chunk as Buffer, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, newline).trimEnd();
      pending = pending.slice(newline + 1);
      if (line !== '') yield line;
    }
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield pending.trim();
}

/**
 * A body read that failed because the connection went (node:http fails an answer cut short with
 * `ECONNRESET`, or ends it early when nothing read it yet), or a line cut in half by it.
 */
function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error instanceof SyntaxError;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
