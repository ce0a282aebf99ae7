import { ConflictError, InputError } from '../../kernel/index.js';
import { RUN_EVENTS_CHANNEL } from '../events/run-events.js';
import { nextIds } from '../store/sequences.js';
import { heldJob } from './job-holder.js';
import { encodeLines, logBlobKey, normalizeLines } from './log-blobs.js';
import { feedSequence, type ReportingContext } from './reporting-context.js';

/** One batch of log lines from the runner holding the job. */
export interface LogChunkInput {
  /**
   * The runner's number for this chunk within the job's attempt: 1, 2, 3, ... A chunk whose
   * number is already stored is acknowledged again and not stored twice, so a runner that lost
   * the answer (reconnect, timeout) resends from its last acknowledged number without risk.
   * Omitted: the next number (for writers that never resend).
   */
  readonly seq?: number;
  /** The step the lines belong to; omitted for lines outside any step (job set-up, clean-up). */
  readonly stepNumber?: number;
  readonly lines: readonly string[];
}

/** The answer to a chunk: what is stored, and from where the runner continues. */
export interface LogAck {
  /** This chunk's number. */
  readonly seq: number;
  /** Every chunk up to this number is stored; the next one the server accepts is `acknowledged + 1`. */
  readonly acknowledged: number;
  /** 1-based number, in the attempt's log, of the chunk's first line. */
  readonly firstLine: number;
  readonly lineCount: number;
  /** True when the chunk had been stored before (a resend): nothing changed. */
  readonly duplicate: boolean;
}

/**
 * Stores a chunk: its lines as one blob, its place in the job's log and in the run's feed as an
 * index row, then wakes the run's event readers. The blob is written inside the transaction,
 * before the row that points to it commits, so a reader never finds a row without its lines
 * (a failed commit leaves a blob the next chunk of that number overwrites). A number beyond
 * the next one expected is refused (409 `log_chunk_gap`): chunks are contiguous, like Gitea's
 * acknowledged index.
 */
export async function appendLog(ctx: ReportingContext, jobId: number, runnerId: string, input: LogChunkInput): Promise<LogAck> {
  if (input.seq !== undefined && !(Number.isSafeInteger(input.seq) && input.seq >= 1)) {
    throw new InputError(`log chunk number ${input.seq} is not valid; chunks are numbered 1, 2, 3, ...`, { code: 'log_chunk_invalid' });
  }
  if (input.stepNumber !== undefined && !(Number.isSafeInteger(input.stepNumber) && input.stepNumber >= 0)) {
    throw new InputError(`step number ${input.stepNumber} is not valid; steps are numbered from 0`, { code: 'log_chunk_invalid' });
  }
  const lines = normalizeLines(input.lines);
  return ctx.tx(async (uow) => {
    const job = await heldJob(uow, jobId, runnerId, ctx.rowLocks);
    const last = await uow.tx
      .selectFrom('engine_log_chunks')
      .select(['runner_seq', 'first_line', 'line_count'])
      .where('job_id', '=', jobId)
      .where('attempt', '=', job.attempt)
      .orderBy('runner_seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    const acknowledged = last ? Number(last.runner_seq) : 0;
    const seq = input.seq ?? acknowledged + 1;

    if (seq <= acknowledged) {
      const stored = await uow.tx
        .selectFrom('engine_log_chunks')
        .select(['first_line', 'line_count'])
        .where('job_id', '=', jobId)
        .where('attempt', '=', job.attempt)
        .where('runner_seq', '=', seq)
        .executeTakeFirstOrThrow();
      if (Number(stored.line_count) !== lines.length) {
        ctx.logger.warn({ jobId, seq, stored: Number(stored.line_count), resent: lines.length }, 'a resent log chunk differs from the stored one; kept the stored one');
      }
      return { seq, acknowledged, firstLine: Number(stored.first_line), lineCount: Number(stored.line_count), duplicate: true };
    }
    if (seq > acknowledged + 1) {
      throw new ConflictError(`log chunk ${seq} of job ${jobId} arrived before chunk ${acknowledged + 1}; resend from chunk ${acknowledged + 1}`, {
        code: 'log_chunk_gap',
        details: { acknowledged, expected: acknowledged + 1 },
      });
    }

    // The blob key's number counts every chunk of the job, over all its attempts.
    const top = await uow.tx.selectFrom('engine_log_chunks').select((eb) => eb.fn.max('seq').as('seq')).where('job_id', '=', jobId).executeTakeFirst();
    const blobSeq = Number(top?.seq ?? 0) + 1;
    const firstLine = last ? Number(last.first_line) + Number(last.line_count) : 1;
    const body = encodeLines(lines);
    const key = logBlobKey(job.runId, jobId, blobSeq);
    await ctx.blobs.put(key, body);
    const feedSeq = await nextIds(uow.tx, feedSequence(job.runId));
    await uow.tx
      .insertInto('engine_log_chunks')
      .values({
        job_id: jobId,
        seq: blobSeq,
        step_number: input.stepNumber ?? null,
        blob_key: key,
        first_line: firstLine,
        line_count: lines.length,
        bytes: body.length,
        created_at: uow.now,
        feed_seq: feedSeq,
        attempt: job.attempt,
        runner_seq: seq,
      })
      .execute();
    uow.notify(RUN_EVENTS_CHANNEL, String(job.runId));
    return { seq, acknowledged: seq, firstLine, lineCount: lines.length, duplicate: false };
  });
}
