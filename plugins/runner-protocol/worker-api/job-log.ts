/**
 * The job-level log (the job record's own log): the official runner writes every step line to
 * its step's log and again to the job's log (`ExecutionContext.Write` also writes to the parent
 * context's paging logger), plus the lines only the job context writes (`Starting:`/`Finishing:`
 * the job in debug mode, job-level errors and warnings such as an outdated runner). On
 * github.com the step views show the step logs and the job log is the "download raw log".
 *
 * So the job log is kept whole as the job's raw log (`reporting.putRawLogPart`, a part per page
 * or block, served by `GET /runs/{id}/logs?job=X&raw=1`) and is not merged into the line store
 * as it arrives. Once it is complete (legacy: `JobCompleted`, or the Listener's completed job
 * record after a Worker crash; results: `CreateJobLogsMetadata`, sent after every step log) its
 * job-only lines are found and stored once, outside any step (`landJobLog`): each line is
 * compared without its timestamp (the two loggers stamp a line separately), and if the job log
 * holds every line the steps' logs hold (the official runner), those are taken out; if not
 * (svc-runner writes only the job-level lines there), every line of it is job-level.
 */
import type { Logger } from '../../../core/kernel/index.js';
import { ConflictError } from '../../../core/kernel/index.js';
import type { Reporting } from '../../../core/engine/index.js';
import { stripBom } from './log-pages.js';
import type { LogsStore, TaskLogRecord } from './logs-store.js';

/** Claim keys of this module start with this; page keys (digests, blob keys) never do. */
const MARKER = 'svc:';
const LANDED = `${MARKER}job-only-lines`;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z /;

export interface JobLogDeps {
  readonly logs: LogsStore;
  readonly reporting: Reporting;
}

/** The job attempt a job log belongs to, as reported by the runner holding it. */
export interface JobLogTarget {
  readonly runId: number;
  readonly jobId: number;
  readonly attempt: number;
  readonly runnerId: string;
}

/**
 * Stores a page (legacy) or block (results) of a job log once, as the next part of the job's raw
 * log; `part` is its number when known (a block's index), else the log's stored pages + 1 (the
 * runner uploads a log's pages one after another).
 */
export async function storeJobLogPage(deps: JobLogDeps, target: JobLogTarget, log: TaskLogRecord, pageKey: string, bytes: Buffer, part?: number): Promise<TaskLogRecord> {
  const claim = await deps.logs.claimPage(log.id, pageKey);
  if (claim === 'stored') return log;
  if (claim === 'busy') throw new ConflictError(`this page of log ${log.id} is being stored by another request; send it again shortly`, { code: 'log_page_busy' });
  try {
    const text = stripBom(bytes.toString('utf8'));
    const number = part ?? (await deps.logs.storedPageCount(log.id, MARKER)) + 1;
    await deps.reporting.putRawLogPart(target.jobId, target.runnerId, number, Buffer.from(text, 'utf8'));
    return (await deps.logs.pageStored(log.id, pageKey, linesOf(text).length)) ?? log;
  } catch (error) {
    await deps.logs.releasePage(log.id, pageKey);
    throw error;
  }
}

/** Stores the job-only lines of the job's raw log, once per job log. */
export async function landJobLog(deps: JobLogDeps, target: JobLogTarget, log: TaskLogRecord): Promise<void> {
  const claim = await deps.logs.claimPage(log.id, LANDED);
  if (claim !== 'claimed') return;
  try {
    const raw = await deps.reporting.readRawLog(target.runId, target.jobId, target.attempt);
    const chunks: Buffer[] = [];
    if (raw !== undefined) for await (const part of raw) chunks.push(part);
    const lines = jobOnlyLines(linesOf(Buffer.concat(chunks).toString('utf8')), await stepLines(deps.reporting, target));
    if (lines.length > 0) await deps.reporting.appendLog(target.jobId, target.runnerId, { lines });
    await deps.logs.pageStored(log.id, LANDED, 0);
  } catch (error) {
    await deps.logs.releasePage(log.id, LANDED);
    throw error;
  }
}

/** Lands every job log of the attempt (at job end); a failure is logged, never thrown (the job still completes). */
export async function landJobLogs(deps: JobLogDeps, target: JobLogTarget, logger: Pick<Logger, 'warn'>): Promise<void> {
  try {
    for (const log of await deps.logs.jobRecordLogs(target.jobId, target.attempt)) await landJobLog(deps, target, log);
  } catch (error) {
    logger.warn({ err: error, jobId: target.jobId }, 'the job-level lines of the job log could not be stored; its raw log is kept');
  }
}

/**
 * The lines of the job log that no step's log has. The official runner's job log holds every
 * step line: when it holds them all (compared without timestamps, as a multiset), they are taken
 * out; otherwise the job log is a job-level log only and is kept whole.
 */
export function jobOnlyLines(jobLines: readonly string[], stepLinesOfJob: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of stepLinesOfJob) left.set(textOf(line), (left.get(textOf(line)) ?? 0) + 1);
  const inJob = new Map<string, number>();
  for (const line of jobLines) inJob.set(textOf(line), (inJob.get(textOf(line)) ?? 0) + 1);
  const repeatsSteps = left.size > 0 && [...left].every(([text, count]) => (inJob.get(text) ?? 0) >= count);
  if (!repeatsSteps) return [...jobLines];
  return jobLines.filter((line) => {
    const count = left.get(textOf(line)) ?? 0;
    if (count === 0) return true;
    left.set(textOf(line), count - 1);
    return false;
  });
}

async function stepLines(reporting: Reporting, target: JobLogTarget): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of reporting.readLogs(target.runId, { jobId: target.jobId, attempt: target.attempt })) if (line.stepNumber !== null) lines.push(line.line);
  return lines;
}

/** A page's lines as the line store keeps them (one trailing break dropped, `\r\n` as `\n`). */
function linesOf(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r?\n$/, '').split(/\r?\n/);
}

function textOf(line: string): string {
  return line.replace(TIMESTAMP, '');
}
