import type { BlobStore } from '../../ports/index.js';
import type { Logger } from '../../kernel/index.js';
import type { EngineDb } from '../store/engine-db.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/** What the reporting functions share: the store, its transactions, the blob store. */
export interface ReportingContext {
  readonly db: EngineDb;
  /** Row locks serialise writers of one run on a shared store (PostgreSQL). */
  readonly rowLocks: boolean;
  readonly blobs: BlobStore;
  readonly logger: Logger;
  readonly tx: <T>(work: (uow: UnitOfWork) => Promise<T>) => Promise<T>;
}

/**
 * The per-run counter that orders a run's feed. Event rows take its values (store/unit-of-work.ts
 * names it the same way); log chunks take one too, so one cursor covers both in commit order.
 * test/engine/reporting.test.ts fails if the two names drift apart.
 */
export const feedSequence = (runId: number): string => `events:${runId}`;
