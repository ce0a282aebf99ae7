/**
 * Two nodes (two `svc serve`, one PostgreSQL schema, one data directory, each its own
 * SVC_NODE_ID and process-backend pool) leave each other's guests alone: each names its guests
 * after its node, and a `kill -9` and restart of either one adopts its own guest only, without
 * removing the other node's guest, root or registration. A third process started with a live
 * node's id is refused before it touches any guest.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spawnCli } from '../support/spawn-cli.js';
import { createHostEnv } from '../support/host-env.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from '../support/services.js';
import { alive, api, eventually, freePort, poolView, runnerNames, serve, type Served } from './support.js';

const postgres = await requireService('postgres');

interface NodesView {
  readonly node: string;
  readonly nodes: readonly { readonly id: string; readonly state: string; readonly pid: number }[];
}

describe('two nodes on one data directory and one store', { skip: postgres.skip }, () => {
  it("each adopts only its own guests after a kill -9, and a third process with a live node's id is refused", async (t) => {
    const { url } = postgresSchemaUrl(t, postgres.url ?? '');
    // The first node makes the cluster key the shared keys are sealed under; the second reads it.
    const clusterKey = join(await tempDir(t), 'cluster.key');
    const shared = createHostEnv({ SVC_LOG_LEVEL: 'info', SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_DATABASE_URL: url, SVC_CLUSTER_KEY_FILE: clusterKey });
    onCleanup(t, () => shared.cleanup());
    shared.writePlugins(['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
    const portA = await freePort();
    const portB = await freePort();
    const nodeEnv = (id: string, port: number) => ({ SVC_NODE_ID: id, SVC_LISTEN: `127.0.0.1:${port}` });
    const idleGuest = async (node: Served) => eventually('an idle guest', async () => (await poolView(node.base)).guests?.find((guest) => guest.phase === 'idle'));

    // One after the other: the first start migrates the schema.
    let a = await serve(t, nodeEnv('node-a', portA), shared);
    const b = await serve(t, nodeEnv('node-b', portB), shared);
    const guestA = await idleGuest(a);
    const guestB = await idleGuest(b);
    const prefix = (guestId: string) => guestId.slice(0, 'svc-pool-000000-'.length);
    assert.notEqual(prefix(guestA.guest_id), prefix(guestB.guest_id), 'each node names its guests after its own id');
    const nodes = await api<NodesView>(a.base, '/api/v1/nodes');
    assert.equal(nodes.node, 'node-a');
    assert.deepEqual(nodes.nodes.map((node) => [node.id, node.state]), [['node-a', 'live'], ['node-b', 'live']]);

    // A third process with node-a's id (same host, node-a alive): refused before its pool starts.
    const twin = spawnCli('svc', ['serve'], { ...shared.env, ...nodeEnv('node-a', await freePort()) });
    onCleanup(t, () => void twin.child.kill('SIGKILL'));
    const exit = await twin.exited;
    assert.notEqual(exit.code, 0, twin.output());
    assert.match(twin.output(), /node id 'node-a' is in use by a live node/);
    assert.match(twin.output(), /SVC_NODE_ID/);
    assert.ok(alive(guestA.pid ?? 0) && alive(guestB.pid ?? 0), 'the refused twin touched no guest');

    // node-a killed and started again on the same data directory: it adopts its guest, not node-b's.
    a.cli.child.kill('SIGKILL');
    await a.cli.exited;
    a = await serve(t, nodeEnv('node-a', portA), shared);
    await a.cli.waitFor(/adopted a guest a previous server left running/, 30_000);
    const adopted = await idleGuest(a);
    assert.equal(adopted.guest_id, guestA.guest_id);
    assert.deepEqual(((await poolView(a.base)).guests ?? []).map((guest) => guest.guest_id), [guestA.guest_id], 'node-a counts only its own guest');
    assert.match(a.cli.output(), /guest roots of other nodes in this data directory are left to them/);
    assert.ok(alive(guestB.pid ?? 0), "node-b's guest still runs");
    assert.ok(existsSync(join(shared.env.SVC_DATA_DIR ?? '', 'pool', guestB.guest_id)), "node-b's guest root is still there");
    const names = await runnerNames(a.base);
    assert.ok(names.includes(guestB.guest_id) && names.includes(guestA.guest_id), `both guests stay registered: ${names.join(', ')}`);
    assert.equal((await poolView(b.base)).guests?.find((guest) => guest.guest_id === guestB.guest_id)?.phase, 'idle');

    // And the other way round.
    b.cli.child.kill('SIGKILL');
    await b.cli.exited;
    const b2 = await serve(t, nodeEnv('node-b', portB), shared);
    await b2.cli.waitFor(/adopted a guest a previous server left running/, 30_000);
    assert.equal((await idleGuest(b2)).guest_id, guestB.guest_id);
    assert.ok(alive(guestA.pid ?? 0), "node-a's guest still runs");
    assert.deepEqual(((await poolView(a.base)).guests ?? []).map((guest) => [guest.guest_id, guest.phase]), [[guestA.guest_id, 'idle']]);

    assert.equal(await a.stop(), 0, a.cli.output());
    assert.equal(await b2.stop(), 0, b2.cli.output());
    assert.ok(!alive(guestA.pid ?? 0) && !alive(guestB.pid ?? 0), 'each stopped its own guest');
    assert.deepEqual(readdirSync(join(shared.env.SVC_DATA_DIR ?? '', 'pool')).filter((name) => name.startsWith('svc-pool-')), []);
  });
});
