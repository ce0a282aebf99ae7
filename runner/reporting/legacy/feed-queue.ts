/**
 * The live console feed over HTTP (§4.4, legacy mode): lines of each step queued as they are
 * logged (masked, without the timestamp, empty ones skipped, long ones cut at 1024 characters,
 * at most 1024 waiting), posted in batches of at most 100 lines per step, about 500 lines a
 * flush. At job end only the last two batches of each step are sent. Best effort: a failed post
 * is dropped, never retried, and never fails the job.
 */
export const FEED_LINE_LIMIT = 1024;
const QUEUE_LIMIT = 1024;
const BATCH_LINES = 100;
const LINES_PER_FLUSH = 500;

export interface FeedBatch {
  readonly stepId: string;
  readonly lines: readonly string[];
  /** The line number of the first line in the step's log. */
  readonly startLine: number;
}

interface QueuedLine {
  readonly stepId: string;
  readonly line: string;
  readonly number: number;
}

export class FeedQueue {
  #queue: QueuedLine[] = [];

  add(stepId: string, line: string, number: number): void {
    if (line === '' || this.#queue.length >= QUEUE_LIMIT) return;
    this.#queue.push({ stepId, line: line.length > FEED_LINE_LIMIT ? `${line.slice(0, FEED_LINE_LIMIT)}...` : line, number });
  }

  get size(): number {
    return this.#queue.length;
  }

  /** The batches of one flush; `final` takes everything but keeps only each step's last two batches. */
  take(final: boolean): FeedBatch[] {
    const taken = final ? this.#queue : this.#queue.slice(0, LINES_PER_FLUSH);
    this.#queue = final ? [] : this.#queue.slice(taken.length);
    const byStep = new Map<string, QueuedLine[]>();
    for (const line of taken) {
      const lines = byStep.get(line.stepId) ?? [];
      lines.push(line);
      byStep.set(line.stepId, lines);
    }
    const batches: FeedBatch[] = [];
    for (const [stepId, lines] of byStep) {
      const stepBatches: FeedBatch[] = [];
      for (let i = 0; i < lines.length; i += BATCH_LINES) {
        const chunk = lines.slice(i, i + BATCH_LINES);
        stepBatches.push({ stepId, lines: chunk.map((line) => line.line), startLine: chunk[0]?.number ?? 1 });
      }
      batches.push(...(final ? stepBatches.slice(-2) : stepBatches));
    }
    return batches;
  }
}
