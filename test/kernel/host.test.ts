import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { defaultCatalog } from '../../builtins/index.js';
import {
  coreServices,
  createExtensionPoint,
  createHost,
  createRootLogger,
  createServiceRef,
  createSilentLogger,
  definePlugin,
  optional,
  PluginError,
  type Catalog,
  type PluginDefinition,
} from '../../core/kernel/index.js';
import { statusWarningsExtensionPoint } from '../../core/ports/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';

function catalogWith(plugins: Record<string, PluginDefinition>): Catalog {
  const importers = Object.fromEntries(Object.entries(plugins).map(([id, plugin]) => [id, async () => ({ plugin })]));
  return { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, ...importers } };
}

function pluginsToml(ids: string[]): string {
  return ids.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n');
}

async function boot(ids: string[], plugins: Record<string, PluginDefinition>) {
  const hostEnv = createHostEnv();
  after(() => hostEnv.cleanup());
  hostEnv.writePlugins(pluginsToml(ids));
  return createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: catalogWith(plugins) });
}

async function refusal(ids: string[], plugins: Record<string, PluginDefinition>): Promise<string> {
  try {
    const host = await boot(ids, plugins);
    await host.stop();
  } catch (error) {
    assert.ok(error instanceof PluginError, `expected PluginError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected the host to refuse to start');
}

describe('host lifecycle', () => {
  it('starts workers in dependency order and stops them in reverse', async () => {
    const events: string[] = [];
    const shared = createServiceRef<string>({ id: 'first.value' });
    const worker = (name: string) => ({ name, start: () => void events.push(`start ${name}`), stop: () => void events.push(`stop ${name}`) });
    const first = definePlugin({
      id: 'first',
      apiVersion: 1,
      deps: {},
      provides: [shared],
      init(_deps, env) {
        events.push('init first');
        env.provideService(shared, 'from-first');
        env.addWorker(worker('first'));
      },
    });
    const second = definePlugin({
      id: 'second',
      apiVersion: 1,
      deps: { value: shared },
      init({ value }, env) {
        events.push(`init second with ${value}`);
        env.addWorker(worker('second'));
      },
    });
    // Listed in the "wrong" order: the kernel orders by dependency.
    const host = await boot(['second', 'first'], { first, second });
    await host.start();
    assert.equal(host.state, 'ready');
    await host.stop();
    assert.equal(host.state, 'stopped');
    assert.deepEqual(events, ['init first', 'init second with from-first', 'start first', 'start second', 'stop second', 'stop first']);
  });

  it('resolves an optional dependency to its provider, or to undefined when no plugin provides it', async () => {
    const shared = createServiceRef<string>({ id: 'first.value' });
    const seen: (string | undefined)[] = [];
    const first = definePlugin({ id: 'first', apiVersion: 1, deps: {}, provides: [shared], init: (_deps, env) => env.provideService(shared, 'from-first') });
    const second = definePlugin({ id: 'second', apiVersion: 1, deps: { value: optional(shared) }, init: ({ value }) => void seen.push(value) });
    await (await boot(['second', 'first'], { first, second })).stop();
    await (await boot(['second'], { second })).stop();
    assert.deepEqual(seen, ['from-first', undefined]);
  });

  it('refuses to start on a missing dependency, naming the plugin', async () => {
    const needy = definePlugin({ id: 'needy', apiVersion: 1, deps: { x: createServiceRef<string>({ id: 'nobody.provides' }) }, init: () => {} });
    assert.match(await refusal(['needy'], { needy }), /plugin 'needy' needs service 'nobody.provides'/);
  });

  it('refuses to start on a cycle', async () => {
    const ra = createServiceRef<string>({ id: 'ca.value' });
    const rb = createExtensionPoint<string>({ id: 'cb.point' });
    const ca = definePlugin({ id: 'ca', apiVersion: 1, deps: { b: rb }, provides: [ra], init: () => {} });
    const cb = definePlugin({ id: 'cb', apiVersion: 1, deps: { a: ra }, provides: [rb], init: () => {} });
    assert.match(await refusal(['ca', 'cb'], { ca, cb }), /dependency cycle: ca -> cb -> ca/);
  });

  it('refuses to start when a plugin init throws, naming it', async () => {
    const broken = definePlugin({ id: 'broken', apiVersion: 1, deps: {}, init: () => { throw new Error('cannot read its settings'); } });
    assert.match(await refusal(['broken'], { broken }), /plugin 'broken' failed to initialise: cannot read its settings/);
  });

  it('refuses a wrong plugin API version', async () => {
    const future = { id: 'future', apiVersion: 9, deps: {}, init: () => {} } as PluginDefinition;
    assert.match(await refusal(['future'], { future }), /plugin 'future' .* targets plugin API version 9/);
  });

  it('refuses a plugin that does not provide what it declared', async () => {
    const liar = definePlugin({ id: 'liar', apiVersion: 1, deps: {}, provides: [createServiceRef<string>({ id: 'liar.value' })], init: () => {} });
    assert.match(await refusal(['liar'], { liar }), /plugin 'liar' declares it provides 'liar.value' but did not provide it/);
  });

  it('runs a plugin\'s migrations after its init and refuses a failing one', async () => {
    const migrating = definePlugin({
      id: 'migrating',
      apiVersion: 1,
      deps: { database: coreServices.database },
      init(_deps, env) {
        env.addMigrations([{ name: '0001_items', up: (db) => db.schema.createTable('items').addColumn('id', 'integer', (c) => c.primaryKey()).execute() }]);
        env.addWorker({
          name: 'check',
          start: async () => {
            await sql`insert into items (id) values (1)`.execute(_deps.database.kysely);
          },
          stop: () => {},
        });
      },
    });
    const host = await boot(['migrating'], { migrating });
    await host.start();
    await host.stop();

    const failing = definePlugin({
      id: 'failing',
      apiVersion: 1,
      deps: {},
      init(_deps, env) {
        env.addMigrations([{ name: '0001_bad', up: async (db) => void (await sql`create tabel nope`.execute(db)) }]);
      },
    });
    assert.match(await refusal(['failing'], { failing }), /plugin 'failing': migration 0001_bad failed/);
  });
});

describe('HTTP surface', () => {
  it('/readyz needs no credential and tells readiness with a reason', async () => {
    const host = await boot(['management-api'], {});
    const before = await host.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(before.statusCode, 503);
    assert.deepEqual(before.json(), { ready: false, reason: 'booting' });
    await host.start();
    const ready = await host.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { ready: true, reason: 'ready' });
    await host.stop();
  });

  it('listening on every address without SVC_PUBLIC_URL: jobs are told a loopback URL, and the log says to set it', async () => {
    const hostEnv = createHostEnv({ SVC_LISTEN: '0.0.0.0:0' });
    after(() => hostEnv.cleanup());
    hostEnv.writePlugins(pluginsToml(['management-api', 'probe']));
    const logged = new PassThrough();
    const lines: string[] = [];
    logged.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    let publicUrl = (): string => assert.fail('the probe plugin did not run');
    const probe = definePlugin({ id: 'probe', apiVersion: 1, deps: { lifecycle: coreServices.lifecycle }, init: ({ lifecycle }) => void (publicUrl = () => lifecycle.publicUrl()) });
    const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createRootLogger({ destination: logged }), catalog: catalogWith({ probe }) });
    const base = await host.start();
    await host.stop();
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(publicUrl(), base);
    const warning = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).find((line) => line.level === 40);
    assert.match(warning?.msg ?? '', /listens on every address, but SVC_PUBLIC_URL is not set: runners and jobs are told http:\/\/127\.0\.0\.1:\d+, .*set SVC_PUBLIC_URL/);
  });

  it('/readyz shows the notes plugins have something to say, without changing readiness', async () => {
    const said: { note?: string } = {};
    const noting = definePlugin({ id: 'noting', apiVersion: 1, deps: {}, init: (_deps, env) => env.addReadinessNote('mood', () => said.note) });
    const host = await boot(['noting'], { noting });
    await host.start();
    assert.deepEqual((await host.app.inject({ method: 'GET', url: '/readyz' })).json(), { ready: true, reason: 'ready' }, 'a note with nothing to say is left out');
    said.note = 'guests run without isolation';
    const noted = await host.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(noted.statusCode, 200);
    assert.deepEqual(noted.json(), { ready: true, reason: 'ready', notes: { 'noting/mood': 'guests run without isolation' } });
    await host.stop();
  });

  it('/api/v1/status refuses missing or wrong tokens and accepts Bearer and token in any case', async () => {
    const host = await boot(['management-api'], {});
    await host.start();
    const status = (authorization?: string) =>
      host.app.inject({ method: 'GET', url: '/api/v1/status', headers: authorization === undefined ? {} : { authorization } });
    const missing = await status();
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 'missing_credential');
    for (const wrong of [`Bearer ${TEST_SYSTEM_TOKEN}x`, 'Bearer', `Basic ${TEST_SYSTEM_TOKEN}`, TEST_SYSTEM_TOKEN, `Bearer ${TEST_SYSTEM_TOKEN.slice(1)}`]) {
      const response = await status(wrong);
      assert.equal(response.statusCode, 401, wrong);
      assert.equal(response.json().code, 'invalid_credential');
    }
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'token', 'Token', 'TOKEN']) {
      const response = await status(`${scheme} ${TEST_SYSTEM_TOKEN}`);
      assert.equal(response.statusCode, 200, scheme);
      const body = response.json();
      assert.equal(body.status, 'ok');
      assert.equal(body.store, 'sqlite');
      assert.deepEqual(body.warnings, []);
    }
    await host.stop();
  });

  it('lists the warnings other plugins contribute, even when listed before the management API', async () => {
    const warner = definePlugin({
      id: 'warner',
      apiVersion: 1,
      deps: { warnings: statusWarningsExtensionPoint },
      init({ warnings }) {
        warnings.addSource('dead-letters', async () => [{ code: 'webhook_dead_letter', message: '1 delivery failed' }]);
        warnings.addSource('flaky', async () => {
          throw new Error('store timeout');
        });
      },
    });
    const host = await boot(['warner', 'management-api'], { warner });
    await host.start();
    const response = await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `token ${TEST_SYSTEM_TOKEN}` } });
    assert.equal(response.json().status, 'degraded');
    assert.deepEqual(response.json().warnings, [
      { code: 'webhook_dead_letter', message: '1 delivery failed' },
      { code: 'status_source_failed', message: 'flaky: store timeout' },
    ]);
    await host.stop();
  });

  it('maps errors once: unknown routes and malformed JSON get a code and a message', async () => {
    const echo = definePlugin({
      id: 'echo',
      apiVersion: 1,
      deps: {},
      init(_deps, env) {
        env.addRoutes({
          prefix: '/api/v1/echo',
          auth: 'system',
          register(app) {
            app.post('/', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async (request) => request.body);
          },
        });
      },
    });
    const host = await boot(['echo'], { echo });
    const headers = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}`, 'content-type': 'application/json' };
    const notFound = await host.app.inject({ method: 'GET', url: '/nope' });
    assert.equal(notFound.statusCode, 404);
    assert.deepEqual(notFound.json(), { code: 'route_not_found', message: 'no route GET /nope' });
    const malformed = await host.app.inject({ method: 'POST', url: '/api/v1/echo', headers, payload: '{"name":' });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().code, 'malformed_json');
    const invalid = await host.app.inject({ method: 'POST', url: '/api/v1/echo', headers, payload: '{}' });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.json().code, 'invalid_request');
    assert.match(invalid.json().message, /name/);
    await host.stop();
  });
});
