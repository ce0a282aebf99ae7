/**
 * Job messages at rest hold no usable token (issue 15, defect 5): a job message waits in the
 * store for its delivery (legacy poll) or its `acquirejob` (broker flow) without its job token,
 * which is minted when the message is handed out; after the job ends nothing in the database is a
 * token. Every table of the store is read raw and searched for the delivered token and for
 * anything shaped like a JWT.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { JsonObject, RunnerJobRequestBody } from '../../core/protocol/index.js';
import { JOB_TOKEN_SLOT } from '../../plugins/runner-protocol/job-message/index.js';
import { acquiredJob, brokerHost, brokerRunner } from './broker-fixture.js';
import { delay, listenerHost, listeningRunner, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS, type RunnerHost } from './runner-host.js';
import { jobInfo, ScriptedWorker, timelineRecord } from './scripted-worker.js';

const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;

/** Every row of every table of the host's store, as text. */
async function storeText(h: RunnerHost): Promise<string> {
  const db = h.database.kysely;
  const tables =
    h.database.capabilities.dialectName === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
  assert.ok(tables.some((table) => table.name === 'runner_messages'), `the store has the runner tables: ${tables.map((table) => table.name).join(', ')}`);
  const dumps: string[] = [];
  for (const { name } of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    dumps.push(`${name}: ${JSON.stringify(rows, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('latin1') : typeof value === 'bigint' ? String(value) : value))}`);
  }
  return dumps.join('\n');
}

function assertNoToken(text: string, token: string, when: string): void {
  assert.equal(text.includes(token), false, `${when}: the job token is in the store`);
  assert.deepEqual(text.match(JWT) ?? [], [], `${when}: a JWT is in the store`);
}

for (const backend of RUNNER_BACKENDS) {
  describe(`job messages at rest (${backend.kind})`, { skip: backend.skip }, () => {
    it('broker flow: the stored message waits for acquirejob without a token; the token minted then verifies; nothing is left after the job', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const broker = await brokerRunner(h, 'broker-01');
      const polling = broker.nextMessage();
      await delay(200);
      await queueRun(h, ['linux']);
      const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;

      const waiting = await storeText(h);
      assert.deepEqual(waiting.match(JWT) ?? [], [], 'the waiting job message holds no token');
      assert.ok(waiting.includes(JOB_TOKEN_SLOT), 'the job message waits in the store, the slot where its token goes');

      assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 200);
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      const job = acquiredJob(acquired.body as Record<string, unknown>);
      assert.match(job.token, JWT);
      assert.equal(JSON.stringify(job.body).includes(JOB_TOKEN_SLOT), false, 'every slot of the message is filled');
      const variables = job.body['variables'] as Record<string, { value: string; isSecret?: boolean }>;
      assert.equal(variables['system.github.token']?.value, job.token, 'GITHUB_TOKEN is the job token');
      const mask = job.body['mask'] as { type: string; value: string }[];
      assert.ok(mask.some((hint) => hint.value === job.token.replaceAll('.', '\\.')), 'the token is masked as a regex that matches only itself');
      assert.equal((await broker.renew(job.systemUrl, job.token, job.ids)).status, 200, 'the token minted at acquirejob opens the job');
      assertNoToken(await storeText(h), job.token, 'while the job runs');

      assert.equal((await broker.complete(job.systemUrl, job.token, job.ids, 'succeeded')).status, 200);
      assertNoToken(await storeText(h), job.token, 'after the job');
    });

    it('legacy flow: the message a poll delivers carries a working token; the store keeps none', async (t) => {
      const h = await listenerHost(t, backend.kind);
      const listener = await listeningRunner(h, 'build-01');
      const { job } = await queueRun(h);
      const { message } = await listener.poll();
      assert.equal(message?.body['requestId'], job.id);
      const info = jobInfo(message.body as JsonObject);
      assert.match(info.token, JWT);
      const worker = new ScriptedWorker(info);
      await worker.connect();
      assert.equal((await worker.updateRecords([timelineRecord({ id: info.jobId, type: 'Job', name: 'build', state: 'inProgress' })])).status, 200, 'the token minted at delivery opens the job');
      assertNoToken(await storeText(h), info.token, 'while the job runs');

      assert.equal((await worker.jobCompleted('succeeded')).status, 204);
      assertNoToken(await storeText(h), info.token, 'after the job');
    });
  });
}
