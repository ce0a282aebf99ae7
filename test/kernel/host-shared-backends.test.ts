import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import { waitForWake, type Database, type Notifier } from '../../core/ports/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { onCleanup, postgresSchemaUrl, redisPrefixUrl, requireService, tempDir } from '../support/services.js';

const postgres = await requireService('postgres');
const redis = await requireService('redis');

/**
 * Two hosts on one PostgreSQL schema and one Redis prefix behave as two nodes of one
 * installation: same migrations (run once), wake-ups crossing from one to the other.
 */
describe('two hosts on PostgreSQL + Redis', { skip: postgres.skip || redis.skip }, () => {
  it('share the store and wake each other', async (t) => {
    const pgUrl = postgresSchemaUrl(t, postgres.url ?? '').url;
    const redisUrl = redisPrefixUrl(t, redis.url ?? '').url;
    // One cluster key for both nodes: the first one makes it, the second one reads it.
    const clusterKeyFile = join(await tempDir(t), 'cluster.key');
    const notifiers: Notifier[] = [];
    const databases: Database[] = [];
    const probe = definePlugin({
      id: 'probe',
      apiVersion: 1,
      deps: { notifier: coreServices.notifier, database: coreServices.database },
      init({ notifier, database }, env) {
        notifiers.push(notifier);
        databases.push(database);
        env.addMigrations([{ name: '0001_marks', up: (db) => db.schema.createTable('marks').addColumn('node', 'text').execute() }]);
      },
    });
    const boot = async (): Promise<Host> => {
      const hostEnv = createHostEnv({ SVC_DATABASE_URL: pgUrl, SVC_REDIS_URL: redisUrl, SVC_CLUSTER_KEY_FILE: clusterKeyFile });
      onCleanup(t, () => hostEnv.cleanup());
      hostEnv.writePlugins('[[plugin]]\nid = "management-api"\n\n[[plugin]]\nid = "probe"\n');
      const host = await createHost({
        env: hostEnv.env,
        cwd: hostEnv.dir,
        logger: createSilentLogger(),
        catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, probe: async () => ({ plugin: probe }) } },
      });
      await host.start();
      onCleanup(t, () => host.stop());
      return host;
    };
    const [a, b] = [await boot(), await boot()];
    const status = await a.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` } });
    assert.equal(status.json().store, 'postgres');
    assert.equal(status.json().notifier, 'redis');

    const [na, nb] = notifiers;
    assert.ok(na && nb);
    const woken = waitForWake(nb, 'jobs', { timeoutMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await na.notify('jobs', 'queued');
    assert.equal(await woken, 'notified');

    // Both nodes run the probe's migrations against one schema: the table exists once and
    // what one node writes the other reads.
    const [da, db] = databases;
    assert.ok(da && db);
    await sql`insert into marks (node) values ('a')`.execute(da.kysely);
    const seen = await sql<{ node: string }>`select node from marks`.execute(db.kysely);
    assert.deepEqual(seen.rows, [{ node: 'a' }]);
    assert.ok(a.state === 'ready' && b.state === 'ready');
  });
});
