import type { RunEvent } from '../events/run-events.js';
import { readChunkLines } from './log-blobs.js';
import { feedSequence, type ReportingContext } from './reporting-context.js';

/** One item of a run's feed: a persisted event, or a line of a log chunk, at its position. */
export interface FeedEntry {
  /** Position in the run's feed; every line of one chunk shares the chunk's position. */
  readonly seq: number;
  readonly event: RunEvent;
}

export interface FeedPage {
  readonly entries: readonly FeedEntry[];
  /** Read on from here (`readFeed(runId, cursor)`). */
  readonly cursor: number;
  /** True when the page was cut at its limit: read again at once. */
  readonly more: boolean;
}

/**
 * The run's feed position now: the last value its counter handed out and committed. Events and
 * log chunks after it are new; the counter is locked until its writer commits, so positions
 * become visible in order and a reader going on from a position never skips one.
 */
export async function feedPosition(ctx: ReportingContext, runId: number): Promise<number> {
  const row = await ctx.db.selectFrom('engine_sequences').select('value').where('name', '=', feedSequence(runId)).executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/**
 * Events and log lines after `after`, in the order they were committed: status changes and the
 * log lines written between them interleave as they happened. `log` lines are made here from
 * the chunks (they are not event rows).
 */
export async function readFeed(ctx: ReportingContext, runId: number, after: number, limit = 200): Promise<FeedPage> {
  const events = await ctx.db
    .selectFrom('engine_events')
    .select(['seq', 'body'])
    .where('run_id', '=', runId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const chunks = await ctx.db
    .selectFrom('engine_log_chunks as c')
    .innerJoin('engine_jobs as j', 'j.id', 'c.job_id')
    .select(['c.feed_seq', 'c.job_id', 'c.blob_key'])
    .where('j.run_id', '=', runId)
    .where('c.feed_seq', '>', after)
    .orderBy('c.feed_seq')
    .limit(limit)
    .execute();
  // A page cut at its limit on one side must not run ahead of what the other side has read.
  let bound = Number.POSITIVE_INFINITY;
  const lastEvent = events[events.length - 1];
  const lastChunk = chunks[chunks.length - 1];
  if (events.length === limit && lastEvent) bound = Math.min(bound, Number(lastEvent.seq));
  if (chunks.length === limit && lastChunk) bound = Math.min(bound, Number(lastChunk.feed_seq));

  const items: { seq: number; load: () => Promise<RunEvent[]> }[] = [
    ...events.map((row) => ({ seq: Number(row.seq), load: async () => [JSON.parse(row.body) as RunEvent] })),
    ...chunks.map((row) => ({
      seq: Number(row.feed_seq),
      load: async () => {
        const lines = await readChunkLines(ctx.blobs, row.blob_key);
        if (lines === undefined) ctx.logger.warn({ runId, key: row.blob_key }, 'log chunk blob is missing; skipped');
        return (lines ?? []).map((line): RunEvent => ({ type: 'log', run_id: runId, job_id: Number(row.job_id), line }));
      },
    })),
  ]
    .filter((item) => item.seq <= bound)
    .sort((a, b) => a.seq - b.seq);

  const entries: FeedEntry[] = [];
  for (const item of items) for (const event of await item.load()) entries.push({ seq: item.seq, event });
  const cursor = items.length > 0 ? Math.max(after, ...items.map((item) => item.seq)) : after;
  return { entries, cursor, more: Number.isFinite(bound) };
}
