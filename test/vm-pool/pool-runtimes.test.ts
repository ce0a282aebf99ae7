/**
 * The pool's JavaScript runtimes and tool cache (plugins/vm-pool/README.md): every guest gets
 * node20 and node24 in `externals/` whatever node runs svc (svc's own for its major, the other
 * provisioned into the data dir from SVC_RUNNER_NODE_DIST), a runtime that cannot be had is a
 * warning in the status, /readyz and GET /api/v1/pool and a note in the guest's externals/, and
 * guests share one tool cache. svc serve as a user starts it, process backend.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodeDistMirror, nodeDistMirrorUnavailable } from '../support/node-dist-mirror.js';
import { api, eventually, poolView, serve } from './support.js';

interface RuntimeView {
  readonly name: string;
  readonly version: string;
  readonly state: string;
  readonly source: string | null;
  readonly path: string | null;
  readonly reason: string | null;
}

interface PoolRuntimesView {
  readonly runtimes: readonly RuntimeView[];
  readonly tool_cache: string | null;
  readonly guests: readonly { guest_id: string; phase: string }[];
}

const serverMajor = process.versions.node.split('.')[0];
const mirrorUnavailable = nodeDistMirrorUnavailable();

describe('built-in pool: node runtimes and the tool cache', () => {
  it('gives guests node 24 provisioned from SVC_RUNNER_NODE_DIST and svc\'s own node for its major', { skip: serverMajor === '24' ? 'svc itself runs on node 24 here' : (mirrorUnavailable ?? false) }, async (t) => {
    const mirror = await nodeDistMirror();
    const served = await serve(t, { SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_RUNNER_NODE_DIST: mirror.dir });
    const dataDir = served.hostEnv.env.SVC_DATA_DIR ?? '';
    const pool = await eventually('a guest waiting with node 24 in its externals', async () => {
      const view = await api<PoolRuntimesView>(served.base, '/api/v1/pool');
      return view.guests.some((guest) => guest.phase === 'idle') ? view : undefined;
    });
    const node24 = pool.runtimes.find((runtime) => runtime.name === 'node24');
    assert.deepEqual(node24, { name: 'node24', version: mirror.version, state: 'ready', source: 'provisioned', path: join(dataDir, 'runtimes', 'node24'), reason: null });
    const own = pool.runtimes.find((runtime) => runtime.name === `node${serverMajor}`);
    if (own !== undefined) assert.deepEqual([own.state, own.source, own.version], ['ready', 'server', process.versions.node]);
    assert.equal(statSync(join(dataDir, 'runtimes')).mode & 0o777, 0o700, 'the runtimes are private to svc');
    const provisioned = spawnSync(join(dataDir, 'runtimes', 'node24', 'bin', 'node'), ['--version'], { encoding: 'utf8' });
    assert.equal(provisioned.stdout.trim(), `v${mirror.version}`, 'the real release, checked and unpacked');
    assert.equal(pool.tool_cache, join(dataDir, 'tool-cache'));
    const guest = pool.guests[0]?.guest_id ?? '';
    assert.equal(readlinkSync(join(dataDir, 'pool', guest, 'externals', 'node24')), join(dataDir, 'runtimes', 'node24'));
    const status = await api<{ warnings: { code: string }[] }>(served.base, '/api/v1/status');
    assert.ok(!status.warnings.some((warning) => warning.code === 'pool_runtime_missing'), JSON.stringify(status.warnings));
  });

  it('says in the status, /readyz, the pool view and each guest what is missing and which knob to set', async (t) => {
    // The test host's SVC_RUNNER_NODE_DIST is a directory that does not exist (support/host-env.ts).
    const served = await serve(t, { SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_POOL_TOOL_CACHE: 'off' });
    const dataDir = served.hostEnv.env.SVC_DATA_DIR ?? '';
    const pool = await eventually('a guest started without node 24', async () => {
      const view = await api<PoolRuntimesView>(served.base, '/api/v1/pool');
      return view.guests.length > 0 && view.runtimes.some((runtime) => runtime.state === 'missing') ? view : undefined;
    });
    const missing = pool.runtimes.filter((runtime) => runtime.state === 'missing');
    assert.deepEqual(missing.map((runtime) => runtime.name).sort(), serverMajor === '20' ? ['node24'] : serverMajor === '24' ? ['node20'] : ['node20', 'node24']);
    const reason = missing[0]?.reason ?? '';
    assert.match(reason, /^the built-in pool has no node \d+\.\d+\.\d+ \(svc serve could not provision it at start\): cannot download node .+ does not exist\. Set SVC_RUNNER_NODE_DIST to a directory laid out as https:\/\/nodejs\.org\/dist .+, and restart svc serve$/);
    assert.equal(pool.tool_cache, null, 'SVC_POOL_TOOL_CACHE=off');
    const status = await api<{ warnings: { code: string; message: string }[] }>(served.base, '/api/v1/status');
    assert.ok(status.warnings.some((warning) => warning.code === 'pool_runtime_missing' && warning.message.includes(reason)), JSON.stringify(status.warnings));
    const readyz = (await (await fetch(`${served.base}/readyz`)).json()) as { ready: boolean; notes?: Record<string, string> };
    assert.equal(readyz.ready, true, 'the server is ready: only actions of that runtime fail');
    assert.match(readyz.notes?.['vm-pool/pool'] ?? '', /actions fail on the built-in pool: the built-in pool has no node/);
    assert.match(served.cli.output(), /built-in pool: node\d+ actions will fail: the built-in pool has no node/);
    const name = missing[0]?.name ?? '';
    const guest = await eventually('a guest past its launch', async () => (await poolView(served.base)).guests?.find((candidate) => candidate.phase === 'idle')?.guest_id);
    const externals = join(dataDir, 'pool', guest, 'externals');
    assert.equal(readFileSync(join(externals, `${name}.missing`), 'utf8').trim(), reason, 'svc-runner shows this when a step needs that runtime');
    assert.ok(!readdirSync(externals).includes(name));
  });
});
