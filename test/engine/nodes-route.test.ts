import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engineHost } from '../support/engine-fixture.js';

describe('GET /api/v1/nodes', () => {
  it('shows this node, live, once the host started, and answers which node it is', async (t) => {
    const { host, auth, clock } = await engineHost(t, { env: { SVC_NODE_ID: 'route-node' } });
    await host.start();
    const response = await host.app.inject({ method: 'GET', url: '/api/v1/nodes', headers: auth });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as { node: string; nodes: { id: string; state: string; pid: number; started_at: string; lease_expires_at: string }[] };
    assert.equal(body.node, 'route-node');
    assert.deepEqual(body.nodes.map((node) => [node.id, node.state, node.pid]), [['route-node', 'live', process.pid]]);
    assert.equal(Date.parse(body.nodes[0]?.lease_expires_at ?? '') - clock.now(), 15_000);
    assert.equal((await host.app.inject({ method: 'GET', url: '/api/v1/nodes' })).statusCode, 401, 'the system token guards it');
  });

  it('refuses SVC_NODE_ID values that are not node ids, naming the variable', async (t) => {
    await assert.rejects(engineHost(t, { env: { SVC_NODE_ID: 'Node A' } }), /SVC_NODE_ID='Node A' is not a node id/);
  });
});
