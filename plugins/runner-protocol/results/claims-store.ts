/**
 * Once-only reports of a job attempt. A report is claimed before it is forwarded and marked
 * stored after, so a retried request finds it stored and forwards nothing; a failed forward
 * releases the claim for the retry, and a claim whose request died is taken over after
 * STALE_CLAIM_MS (the same scheme as the legacy log pages, worker-api logs-store.ts).
 */
import type { Clock } from '../../../core/ports/index.js';
import type { ResultsDb } from './results-tables.js';

export type Claim = 'claimed' | 'stored' | 'busy';

export const STALE_CLAIM_MS = 2 * 60_000;

export interface ClaimsStore {
  claim(jobRecordId: string, name: string): Promise<Claim>;
  stored(jobRecordId: string, name: string): Promise<void>;
  release(jobRecordId: string, name: string): Promise<void>;
}

export function createClaims(db: ResultsDb, clock: Clock): ClaimsStore {
  return {
    async claim(jobRecordId, name) {
      const now = clock.now();
      const inserted = await db
        .insertInto('runner_results_claims')
        .values({ job_record_id: jobRecordId, name, state: 'pending', claimed_at: now })
        .onConflict((oc) => oc.columns(['job_record_id', 'name']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return 'claimed';
      const row = await db.selectFrom('runner_results_claims').select(['state', 'claimed_at']).where('job_record_id', '=', jobRecordId).where('name', '=', name).executeTakeFirst();
      if (row === undefined) return 'busy';
      if (row.state === 'stored') return 'stored';
      if (Number(row.claimed_at) > now - STALE_CLAIM_MS) return 'busy';
      const taken = await db
        .updateTable('runner_results_claims')
        .set({ claimed_at: now })
        .where('job_record_id', '=', jobRecordId)
        .where('name', '=', name)
        .where('state', '=', 'pending')
        .where('claimed_at', '=', Number(row.claimed_at))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) > 0 ? 'claimed' : 'busy';
    },
    async stored(jobRecordId, name) {
      await db.updateTable('runner_results_claims').set({ state: 'stored' }).where('job_record_id', '=', jobRecordId).where('name', '=', name).execute();
    },
    async release(jobRecordId, name) {
      await db.deleteFrom('runner_results_claims').where('job_record_id', '=', jobRecordId).where('name', '=', name).where('state', '=', 'pending').execute();
    },
  };
}
