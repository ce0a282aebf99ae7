/**
 * One page of a job's log into the engine, once. A page is the runner's own file of log lines
 * (a UTF-8 BOM, then `<timestamp> <text>` lines): a legacy log page (log-routes.ts) or a block of
 * a results log (results/). It becomes one engine log chunk, without its BOM, under its step
 * (or outside any step for a record the server does not know). The job's own log is not stored
 * this way: it is the job's raw log (job-log.ts).
 *
 * A page is claimed under its log by a key before it is stored (legacy: its content digest;
 * results: its block's blob key), so a resent page is answered and stored nothing, and a claim
 * whose request died is taken over after STALE_PAGE_MS (logs-store.ts).
 */
import { ConflictError } from '../../../core/kernel/index.js';
import type { Reporting } from '../../../core/engine/index.js';
import type { LogsStore, TaskLogRecord } from './logs-store.js';

/** Where a page's lines go: the engine job, as reported by the runner holding it, and its step. */
export interface LogPageTarget {
  readonly jobId: number;
  readonly runnerId: string;
  /** Undefined: lines outside any step (a step the server does not know). */
  readonly stepNumber: number | undefined;
}

export interface LogPageDeps {
  readonly logs: LogsStore;
  readonly reporting: Reporting;
}

/** Stores a page of `log` under `pageKey` unless it is stored already; the log as it is after. */
export async function storeLogPage(deps: LogPageDeps, target: LogPageTarget, log: TaskLogRecord, pageKey: string, bytes: Buffer): Promise<TaskLogRecord> {
  const claim = await deps.logs.claimPage(log.id, pageKey);
  if (claim === 'stored') return log;
  if (claim === 'busy') throw new ConflictError(`this page of log ${log.id} is being stored by another request; send it again shortly`, { code: 'log_page_busy' });
  try {
    const text = stripBom(bytes.toString('utf8'));
    let lineCount = 0;
    if (text !== '') {
      const { stepNumber } = target;
      const ack = await deps.reporting.appendLog(target.jobId, target.runnerId, { ...(stepNumber === undefined ? {} : { stepNumber }), lines: [text] });
      lineCount = ack.lineCount;
    }
    return (await deps.logs.pageStored(log.id, pageKey, lineCount)) ?? log;
  } catch (error) {
    await deps.logs.releasePage(log.id, pageKey);
    throw error;
  }
}

/** The runner writes its page files with .NET's UTF-8 encoding, which starts each with a BOM. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
