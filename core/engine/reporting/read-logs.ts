import { readChunkLines } from './log-blobs.js';
import type { ReportingContext } from './reporting-context.js';

export interface LogFilter {
  readonly jobId?: number;
  readonly stepNumber?: number;
  /** The job attempt to read; by default each job's latest (the one a re-run started). */
  readonly attempt?: number;
}

export interface LogLine {
  readonly jobId: number;
  /** Null for lines outside any step. */
  readonly stepNumber: number | null;
  /** 1-based number of the line in its attempt's log. */
  readonly lineNumber: number;
  readonly line: string;
}

const PAGE = 200;

/**
 * A run's log lines in order: job by job (in job order), each job's chunks in the order they
 * were stored. Reads a page of chunk rows at a time and one blob at a time, so a large log is
 * never held in memory. A chunk whose blob is gone is skipped with a warning.
 */
export async function* readLogs(ctx: ReportingContext, runId: number, filter: LogFilter = {}): AsyncGenerator<LogLine> {
  let jobsQuery = ctx.db.selectFrom('engine_jobs').select(['id', 'attempt']).where('run_id', '=', runId);
  if (filter.jobId !== undefined) jobsQuery = jobsQuery.where('id', '=', filter.jobId);
  const jobs = await jobsQuery.orderBy('id').execute();
  for (const job of jobs) {
    const jobId = Number(job.id);
    const attempt = filter.attempt ?? Number(job.attempt);
    for (let after = 0; ; ) {
      let query = ctx.db
        .selectFrom('engine_log_chunks')
        .select(['seq', 'step_number', 'blob_key', 'first_line'])
        .where('job_id', '=', jobId)
        .where('attempt', '=', attempt)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(PAGE);
      if (filter.stepNumber !== undefined) query = query.where('step_number', '=', filter.stepNumber);
      const chunks = await query.execute();
      for (const chunk of chunks) {
        const lines = await readChunkLines(ctx.blobs, chunk.blob_key);
        if (lines === undefined) {
          ctx.logger.warn({ runId, jobId, key: chunk.blob_key }, 'log chunk blob is missing; skipped');
          continue;
        }
        const stepNumber = chunk.step_number === null ? null : Number(chunk.step_number);
        const first = Number(chunk.first_line);
        for (const [index, line] of lines.entries()) yield { jobId, stepNumber, lineNumber: first + index, line };
      }
      const last = chunks[chunks.length - 1];
      if (chunks.length < PAGE || last === undefined) break;
      after = Number(last.seq);
    }
  }
}
