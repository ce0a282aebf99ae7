import type { ExpressionBuilder, Kysely } from 'kysely';
import { InputError } from '../../core/kernel/index.js';
import type {
  AnyKysely,
  Clock,
  DatabaseCapabilities,
  LeaseRow,
  LeaseTable,
  Leases,
} from '../../core/ports/index.js';
import { assertIdentifier } from './identifiers.js';

/** Lease tables are named at run time, so the helper sees them as untyped rows. */
type LeaseDb = Record<string, Record<string, unknown>>;

interface Columns {
  readonly table: string;
  readonly id: string;
  readonly owner: string;
  readonly expires: string;
}

export interface SqlLeasesOptions {
  readonly db: AnyKysely;
  readonly capabilities: DatabaseCapabilities;
  readonly clock: Clock;
}

/**
 * Leases as single conditional statements. A row is held while `owner` is set and
 * `expires >= now`; it is free when `owner` is null or `expires < now`. Every claim re-checks
 * "free" in the statement that writes it, so two claimers never both win, whatever the
 * isolation level: on PostgreSQL under READ COMMITTED the outer re-check is re-evaluated on the
 * latest row version after a concurrent update (EvalPlanQual), and SQLite runs one writer at a time.
 * Without SKIP LOCKED, a claimer that lost the race for the row it picked gets `undefined` even
 * if other rows are free; callers poll again anyway, so that costs one round trip, not a job.
 */
export function createSqlLeases(options: SqlLeasesOptions): Leases {
  const db: Kysely<LeaseDb> = options.db.withTables<LeaseDb>();
  const { capabilities, clock } = options;

  const free = (c: Columns, now: number) => (eb: ExpressionBuilder<LeaseDb, string>) =>
    eb.or([eb(c.owner, 'is', null), eb(c.expires, '<', now)]);
  const heldBy = (c: Columns, owner: string, now: number) => (eb: ExpressionBuilder<LeaseDb, string>) =>
    eb.and([eb(c.owner, '=', owner), eb(c.expires, '>=', now)]);

  return {
    async claimNext(table, claim) {
      const c = columns(table);
      assertOwner(claim.owner);
      assertTtl(claim.ttlMs);
      const orderBy = assertIdentifier(claim.orderBy ?? c.id, 'order-by column');
      const filters = Object.entries(claim.where ?? {}).map(([column, value]) => [assertIdentifier(column, 'filter column'), value] as const);
      const now = clock.now();

      let pick = db.selectFrom(c.table).select(c.id).where(free(c, now));
      for (const [column, value] of filters) {
        pick = value === null ? pick.where(column, 'is', null) : pick.where(column, '=', value);
      }
      pick = pick.orderBy(orderBy).orderBy(c.id).limit(1);
      // Without SKIP LOCKED a second claimer would queue behind the first one's row lock and then
      // find the row taken; with it, it moves on to the next free row straight away.
      if (capabilities.skipLocked) pick = pick.forUpdate().skipLocked();

      const row = await db
        .updateTable(c.table)
        .set({ [c.owner]: claim.owner, [c.expires]: now + claim.ttlMs })
        .where(c.id, '=', pick)
        .where(free(c, now))
        .returningAll()
        .executeTakeFirst();
      return row as LeaseRow | undefined;
    },

    async claim(table, id, owner, ttlMs) {
      const c = columns(table);
      assertOwner(owner);
      assertTtl(ttlMs);
      const now = clock.now();
      const result = await db
        .updateTable(c.table)
        .set({ [c.owner]: owner, [c.expires]: now + ttlMs })
        .where(c.id, '=', id)
        .where(free(c, now))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async renew(table, id, owner, ttlMs) {
      const c = columns(table);
      assertOwner(owner);
      assertTtl(ttlMs);
      const now = clock.now();
      const result = await db
        .updateTable(c.table)
        .set({ [c.expires]: now + ttlMs })
        .where(c.id, '=', id)
        .where(heldBy(c, owner, now))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async release(table, id, owner) {
      const c = columns(table);
      assertOwner(owner);
      const now = clock.now();
      const result = await db
        .updateTable(c.table)
        .set({ [c.owner]: null, [c.expires]: null })
        .where(c.id, '=', id)
        .where(heldBy(c, owner, now))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

function columns(table: LeaseTable): Columns {
  return {
    table: assertIdentifier(table.table, 'lease table'),
    id: assertIdentifier(table.idColumn ?? 'id', 'lease id column'),
    owner: assertIdentifier(table.ownerColumn ?? 'lease_owner', 'lease owner column'),
    expires: assertIdentifier(table.expiresColumn ?? 'lease_expires_at', 'lease expiry column'),
  };
}

function assertOwner(owner: string): void {
  if (typeof owner !== 'string' || owner.length === 0) {
    throw new InputError('a lease owner must be a non-empty string', { code: 'invalid_lease_owner' });
  }
}

function assertTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new InputError(`a lease ttl must be a positive whole number of milliseconds, got ${ttlMs}`, {
      code: 'invalid_lease_ttl',
    });
  }
}
