import { buffer } from 'node:stream/consumers';
import { InputError } from '../../kernel/index.js';
import { heldJob } from './job-holder.js';
import type { ReportingContext } from './reporting-context.js';

/**
 * A job attempt's raw log (GitHub's "download raw log"): the runner's own job-level log, every
 * line it wrote with its timestamp, kept whole and apart from the line store (`appendLog`),
 * which holds what `/logs` and the run's feed show. It is stored in numbered parts, in the order
 * the runner wrote them (a legacy log page, a results log block), at
 * `logs/<runId>/<jobId>/raw/<attempt>/<part>.log`; a part stored again replaces itself.
 */
export function rawLogPartKey(runId: number, jobId: number, attempt: number, part: number): string {
  return `${rawLogPrefix(runId, jobId, attempt)}${String(part).padStart(8, '0')}.log`;
}

function rawLogPrefix(runId: number, jobId: number, attempt: number): string {
  return `logs/${runId}/${jobId}/raw/${attempt}/`;
}

/** Stores part `part` (1, 2, ...) of the raw log of the job's current attempt, from the runner holding it. */
export async function putRawLogPart(ctx: ReportingContext, jobId: number, runnerId: string, part: number, body: Buffer): Promise<void> {
  if (!(Number.isSafeInteger(part) && part >= 1 && part < 1e8)) throw new InputError(`raw log part ${part} is not valid; parts are numbered 1, 2, 3, ...`, { code: 'raw_log_part_invalid' });
  await ctx.tx(async (uow) => {
    const job = await heldJob(uow, jobId, runnerId, ctx.rowLocks);
    await ctx.blobs.put(rawLogPartKey(job.runId, jobId, job.attempt, part), body);
  });
}

/**
 * The raw log of a job of the run (by default its latest attempt), part by part; undefined when
 * the job is not the run's or has no raw log.
 */
export async function readRawLog(ctx: ReportingContext, runId: number, jobId: number, attempt?: number): Promise<AsyncIterable<Buffer> | undefined> {
  const job = await ctx.db.selectFrom('engine_jobs').select(['attempt']).where('id', '=', jobId).where('run_id', '=', runId).executeTakeFirst();
  if (job === undefined) return undefined;
  const prefix = rawLogPrefix(runId, jobId, attempt ?? Number(job.attempt));
  const keys: string[] = [];
  for await (const blob of ctx.blobs.list(prefix)) keys.push(blob.key);
  if (keys.length === 0) return undefined;
  keys.sort();
  const { blobs, logger } = ctx;
  return (async function* parts() {
    for (const key of keys) {
      const stream = await blobs.get(key);
      if (stream === undefined) {
        logger.warn({ runId, jobId, key }, 'a raw log part is missing; skipped');
        continue;
      }
      yield await buffer(stream);
    }
  })();
}
