/**
 * What every store backend's leases must do: single-statement claims that two claimers never
 * both win, expiry that hands a lease over (driven by the injected clock), renew and release.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { InputError, type Store } from '../../core/kernel/index.js';
import type { LeaseTable } from '../../core/ports/index.js';
import type { StoreHarness, StoreHarnessFactory, SuiteOptions } from './store-suite.js';

const JOBS: LeaseTable = { table: 'jobs' };
const TTL = 30_000;

async function setUp(t: TestContext, factory: StoreHarnessFactory): Promise<StoreHarness> {
  const harness = await factory(t);
  const report = await harness.store.migrator.migrate('lease-tests', [
    {
      name: '001_jobs',
      up: async (db) => {
        await db.schema
          .createTable('jobs')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('urgent', 'boolean', (c) => c.notNull().defaultTo(false))
          .addColumn('labels', 'text')
          .addColumn('queued_at', 'bigint', (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_expires_at', 'bigint')
          .execute();
      },
    },
  ]);
  assert.equal(report.error, undefined);
  return harness;
}

async function addJobs(store: Store, ids: readonly number[], state = 'queued'): Promise<void> {
  for (const id of ids) {
    await sql`insert into jobs (id, state, queued_at) values (${id}, ${state}, ${1000 - id})`.execute(store.database.kysely);
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export function leaseSuite(name: string, factory: StoreHarnessFactory, options: SuiteOptions = {}): void {
  describe(`${name} store: leases`, { skip: options.skip ?? false }, () => {
    test('claimNext takes the first free matching row and stamps owner and expiry', async (t) => {
      const { store, clock } = await setUp(t, factory);
      await addJobs(store, [1, 2, 3]);
      await sql`update jobs set state = 'done' where id = 1`.execute(store.database.kysely);
      await sql`update jobs set urgent = ${true}, labels = 'linux' where id = 3`.execute(store.database.kysely);

      const row = await store.leases.claimNext(JOBS, { owner: 'worker-a', ttlMs: TTL, where: { state: 'queued' } });
      assert.equal(row?.['id'], 2);
      assert.equal(row?.['lease_owner'], 'worker-a');
      assert.equal(row?.['lease_expires_at'], clock.now() + TTL, 'expiry is a number in epoch ms');

      const urgent = await store.leases.claimNext(JOBS, { owner: 'worker-b', ttlMs: TTL, where: { urgent: true, labels: 'linux' } });
      assert.equal(urgent?.['id'], 3, 'boolean and text filters apply');
      assert.equal(await store.leases.claimNext(JOBS, { owner: 'worker-c', ttlMs: TTL, where: { state: 'queued' } }), undefined);
      const unlabelled = await store.leases.claimNext(JOBS, { owner: 'worker-c', ttlMs: TTL, where: { labels: null } });
      assert.equal(unlabelled?.['id'], 1, 'null filters match IS NULL');
    });

    test('claimNext honours orderBy', async (t) => {
      const { store } = await setUp(t, factory);
      await addJobs(store, [1, 2, 3]); // queued_at is 999, 998, 997
      const oldest = await store.leases.claimNext(JOBS, { owner: 'w', ttlMs: TTL, orderBy: 'queued_at' });
      assert.equal(oldest?.['id'], 3);
      const byId = await store.leases.claimNext(JOBS, { owner: 'w', ttlMs: TTL });
      assert.equal(byId?.['id'], 1);
    });

    test('two claimers racing for one row: exactly one wins, every time', async (t) => {
      const { store, openPeer } = await setUp(t, factory);
      const peer = await openPeer();
      for (const id of range(1, 20)) {
        await addJobs(store, [id]);
        const attempts = await Promise.all([
          ...range(1, 3).map((n) => store.leases.claimNext(JOBS, { owner: `a${n}`, ttlMs: TTL })),
          ...range(1, 3).map((n) => peer.leases.claimNext(JOBS, { owner: `b${n}`, ttlMs: TTL })),
        ]);
        const winners = attempts.filter((row) => row !== undefined);
        assert.equal(winners.length, 1, `row ${id} was claimed ${winners.length} times`);
        const byId = await Promise.all([store.leases.claim(JOBS, id, 'late-a', TTL), peer.leases.claim(JOBS, id, 'late-b', TTL)]);
        assert.deepEqual(byId, [false, false], 'a held row cannot be claimed by id');
      }
      for (const id of range(21, 30)) {
        await addJobs(store, [id]);
        const byId = await Promise.all([store.leases.claim(JOBS, id, 'a', TTL), peer.leases.claim(JOBS, id, 'b', TTL)]);
        assert.equal(byId.filter(Boolean).length, 1, `row ${id} was claimed by id ${byId.filter(Boolean).length} times`);
      }
    });

    test('many claimers over many rows: each row is claimed exactly once', async (t) => {
      const { store, openPeer } = await setUp(t, factory);
      const peer = await openPeer();
      const rows = 60;
      await addJobs(store, range(1, rows));
      const claimed: number[] = [];
      const worker = async (node: Store, owner: string): Promise<void> => {
        for (;;) {
          const row = await node.leases.claimNext(JOBS, { owner, ttlMs: TTL, where: { state: 'queued' } });
          if (row === undefined) return;
          claimed.push(Number(row['id']));
        }
      };
      await Promise.all(range(1, 8).map((n) => worker(n % 2 === 0 ? store : peer, `worker-${n}`)));
      assert.deepEqual([...claimed].sort((a, b) => a - b), range(1, rows));
    });

    test('an expired lease is handed over; the old holder can neither renew nor release it', async (t) => {
      const { store, clock, openPeer } = await setUp(t, factory);
      const peer = await openPeer();
      await addJobs(store, [1]);
      assert.equal((await store.leases.claimNext(JOBS, { owner: 'old', ttlMs: 1000 }))?.['id'], 1);

      clock.advance(1000);
      assert.equal(await peer.leases.claimNext(JOBS, { owner: 'new', ttlMs: 1000 }), undefined, 'held through its expiry instant');
      assert.equal(await store.leases.renew(JOBS, 1, 'old', 1000), true, 'renewable up to its expiry instant');

      clock.advance(1001);
      const taken = await peer.leases.claimNext(JOBS, { owner: 'new', ttlMs: 5000 });
      assert.equal(taken?.['lease_owner'], 'new');
      assert.equal(await store.leases.renew(JOBS, 1, 'old', 1000), false, 'renew after loss must fail');
      assert.equal(await store.leases.release(JOBS, 1, 'old'), false, 'release after loss must fail');
      assert.equal(await peer.leases.renew(JOBS, 1, 'new', 5000), true);

      clock.advance(6000);
      assert.equal(await store.leases.claim(JOBS, 1, 'third', 1000), true, 'claim by id takes an expired lease');
    });

    test('an expired lease that nobody took is lost to its holder too', async (t) => {
      const { store, clock } = await setUp(t, factory);
      await addJobs(store, [1]);
      assert.equal(await store.leases.claim(JOBS, 1, 'holder', 1000), true);
      clock.advance(1001);
      assert.equal(await store.leases.renew(JOBS, 1, 'holder', 1000), false);
    });

    test('release frees the row for the next claimer; only the holder may release', async (t) => {
      const { store } = await setUp(t, factory);
      await addJobs(store, [1]);
      assert.equal(await store.leases.claim(JOBS, 1, 'holder', TTL), true);
      assert.equal(await store.leases.release(JOBS, 1, 'someone-else'), false);
      assert.equal(await store.leases.claim(JOBS, 1, 'other', TTL), false);
      assert.equal(await store.leases.release(JOBS, 1, 'holder'), true);
      assert.equal(await store.leases.release(JOBS, 1, 'holder'), false, 'a second release finds nothing held');
      const row = await store.leases.claimNext(JOBS, { owner: 'other', ttlMs: TTL });
      assert.equal(row?.['lease_owner'], 'other');
      assert.equal(await store.leases.claim(JOBS, 99, 'other', TTL), false, 'a missing row is not claimed');
    });

    test('identifiers and arguments are validated before any SQL runs', async (t) => {
      const { store } = await setUp(t, factory);
      await addJobs(store, [1]);
      const refused = (error: unknown): boolean => error instanceof InputError;
      await assert.rejects(store.leases.claimNext({ table: 'jobs; drop table jobs' }, { owner: 'x', ttlMs: TTL }), refused);
      await assert.rejects(store.leases.claimNext(JOBS, { owner: 'x', ttlMs: TTL, where: { 'state = state or 1': 1 } }), refused);
      await assert.rejects(store.leases.claimNext(JOBS, { owner: 'x', ttlMs: TTL, orderBy: 'id desc' }), refused);
      await assert.rejects(store.leases.claim({ table: 'jobs', ownerColumn: 'lease-owner' }, 1, 'x', TTL), refused);
      await assert.rejects(store.leases.claim(JOBS, 1, '', TTL), refused);
      await assert.rejects(store.leases.claim(JOBS, 1, 'x', 0), refused);
      const row = await sql<{ n: number | string }>`select count(*) as n from jobs where lease_owner is null`.execute(store.database.kysely);
      assert.equal(Number(row.rows[0]?.n), 1, 'nothing was claimed by the refused calls');
    });
  });
}
