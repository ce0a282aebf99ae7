import type { RunnerDb } from './runner-db.js';

export interface AssertionJtis {
  /**
   * Records the `jti` of an accepted client assertion until `expiresAt`. False when it was
   * already recorded: the same assertion presented twice is a replay.
   */
  claim(jti: string, expiresAt: number, now: number): Promise<boolean>;
}

export function createAssertionJtis(db: RunnerDb): AssertionJtis {
  return {
    async claim(jti, expiresAt, now) {
      // Expired entries can never match a valid assertion again; drop them on the way.
      await db.deleteFrom('runner_assertion_jtis').where('expires_at', '<', now).execute();
      const result = await db
        .insertInto('runner_assertion_jtis')
        .values({ jti, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}
