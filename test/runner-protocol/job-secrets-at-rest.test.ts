/**
 * A job's secrets at rest (issue 17, item 8): with the secrets plugin, a job message waits in the
 * store with slots where its secrets go and their values sealed; the message handed out (poll on
 * the legacy flow, `acquirejob` on the broker flow) carries each secret the job reads, marked
 * secret and masked, and only those. No value is in the store before, during or after.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { JsonObject, RunnerJobRequestBody } from '../../core/protocol/index.js';
import { job, runInput } from '../support/run-builder.js';
import { acquiredJob, brokerRunner } from './broker-fixture.js';
import { delay, listeningRunner, WORKFLOW_PATH } from './listener-fixture.js';
import { RUNNER_BACKENDS, runnerHost, type RunnerHost } from './runner-host.js';
import { jobInfo } from './scripted-worker.js';

const READ = 'read-secret-value-5c1e';
const UNREAD = 'unread-secret-value-93aa';
const WORKFLOW = ['on: push', 'jobs:', '  build:', '    runs-on: [self-hosted, linux]', '    steps:', '      - run: echo "${{ secrets.DEPLOY_KEY }}"', ''].join('\n');

async function storeText(h: RunnerHost): Promise<string> {
  const db = h.database.kysely;
  const tables =
    h.database.capabilities.dialectName === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
  assert.ok(tables.some((table) => table.name === 'secret_values'), 'the secrets plugin is loaded');
  const dumps: string[] = [];
  for (const { name } of tables) dumps.push(JSON.stringify((await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
  return dumps.join('\n');
}

function assertNoValue(text: string, when: string): void {
  for (const value of [READ, UNREAD]) assert.equal(text.includes(value), false, `${when}: a secret value is in the store`);
}

async function withSecrets(h: RunnerHost): Promise<void> {
  for (const [name, value] of [['DEPLOY_KEY', READ], ['NOT_READ', UNREAD]]) {
    const response = await fetch(`${h.baseUrl}/api/v1/secrets/${name}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.systemToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value }),
    });
    assert.equal(response.status, 204, await response.text());
  }
}

function assertCarried(body: JsonObject): void {
  const variables = body['variables'] as Record<string, { value: string; isSecret?: boolean }>;
  assert.deepEqual(variables['DEPLOY_KEY'], { value: READ, isSecret: true });
  assert.equal(variables['NOT_READ'], undefined, 'a secret the job does not read stays out');
  assert.ok((body['mask'] as { value: string }[]).some((hint) => hint.value === READ));
  assert.equal(JSON.stringify(body).includes('filled-at-delivery') || 'svcSealedSecrets' in body, false, 'every slot filled, the sealed member dropped');
}

for (const backend of RUNNER_BACKENDS) {
  describe(`job secrets at rest (${backend.kind})`, { skip: backend.skip }, () => {
    it('broker flow: slots and sealed values wait for acquirejob, which hands out the values', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_RUNNER_FLOW: 'broker' }, plugin: { timings: { pollHoldMs: 1500 } }, plugins: ['secrets'] });
      await withSecrets(h);
      const broker = await brokerRunner(h, 'broker-01');
      const polling = broker.nextMessage();
      await delay(200);
      await h.engine.createRun(runInput([job('build', { runsOn: ['linux'] })], { files: [{ path: WORKFLOW_PATH, content: WORKFLOW.replace('[self-hosted, linux]', '[linux]') }] }));
      const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;
      const waiting = await storeText(h);
      assertNoValue(waiting, 'while the message waits');
      assert.ok(waiting.includes('svc-secret-1-filled-at-delivery') && waiting.includes('svcSealedSecrets'), 'the message waits with a slot and its sealed values');

      assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 200);
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      const taken = acquiredJob(acquired.body as Record<string, unknown>);
      assertCarried(taken.body as JsonObject);
      assertNoValue(await storeText(h), 'after acquirejob');
      assert.equal((await broker.complete(taken.systemUrl, taken.token, taken.ids, 'succeeded')).status, 200);
      assertNoValue(await storeText(h), 'after the job');
    });

    it('legacy flow: the message a poll delivers carries the secret the job reads; the store keeps none', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind, plugin: { timings: { pollHoldMs: 1500 } }, plugins: ['secrets'] });
      await withSecrets(h);
      const listener = await listeningRunner(h, 'build-01');
      await h.engine.createRun(runInput([job('build', { runsOn: ['self-hosted', 'linux'] })], { files: [{ path: WORKFLOW_PATH, content: WORKFLOW }] }));
      const { message } = await listener.poll();
      assert.ok(message !== undefined);
      assertCarried(message.body as JsonObject);
      assert.match(jobInfo(message.body as JsonObject).token, /^eyJ/);
      assertNoValue(await storeText(h), 'after delivery');
    });
  });
}
