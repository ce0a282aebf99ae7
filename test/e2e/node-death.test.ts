/**
 * A dead node's job recovered: two `svc serve` on one PostgreSQL schema (node-a with a
 * process-backend pool, node-b without one), a job running on node-a's guest, `kill -9` of
 * node-a. node-b fails the job with the lost-runner reason naming node-a, its running step
 * closed, within 90 s of the kill (the measured time is printed). node-a started again adopts
 * its guest and leaves the failed job as it is. No proxy: the guest reaches node-a only.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RunView } from '../../plugins/engine/run-view.js';
import { useBundle } from '../local-runs/run-cli-harness.js';
import { createHostEnv } from '../support/host-env.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from '../support/services.js';
import { alive, api, eventually, freePort, poolView, serve, submitWorkflow } from '../vm-pool/support.js';

after(useBundle('e2e-nodes'));
const postgres = await requireService('postgres');

const WORKFLOW = `name: long
on: push
jobs:
  long:
    runs-on: ubuntu-latest
    steps:
      - name: Before the kill
        run: echo "before the kill"
      - name: Through the kill
        run: sleep 600
      - name: Never
        run: echo "never"
`;

/**
 * Kills what is left of a guest: on the process backend, stopping a guest mid-job ends its
 * runner's process group, but the job's worker runs in its own group (and retries its reports
 * to a server that is gone for up to 15 minutes).
 */
function killGuestLeftovers(guestId: string): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes(guestId)) {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

const PLUGINS = ['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol'];

describe('kill -9 of the node whose guest runs a job', { skip: postgres.skip }, () => {
  it('the other node fails the job with the reason within 90 s; the dead node restarted leaves it alone', async (t) => {
    const { url } = postgresSchemaUrl(t, postgres.url ?? '');
    // The first node makes the cluster key the shared keys are sealed under; the second reads it.
    const common = { SVC_LOG_LEVEL: 'info', SVC_DATABASE_URL: url, SVC_CLUSTER_KEY_FILE: join(await tempDir(t), 'cluster.key') };
    const envA = createHostEnv({ ...common, SVC_NODE_ID: 'node-a', SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_LISTEN: `127.0.0.1:${await freePort()}` });
    const envB = createHostEnv({ ...common, SVC_NODE_ID: 'node-b' });
    for (const env of [envA, envB]) {
      onCleanup(t, () => env.cleanup());
      env.writePlugins(PLUGINS.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
    }
    const a = await serve(t, {}, envA);
    const b = await serve(t, {}, envB);
    const guest = await eventually('a warm guest on node-a', async () => (await poolView(a.base)).guests?.find((g) => g.phase === 'idle'));
    onCleanup(t, () => killGuestLeftovers(guest.guest_id));

    const runId = await submitWorkflow(a.base, WORKFLOW);
    const view = () => api<RunView>(b.base, `/api/v1/runs/${runId}`);
    await eventually(
      'the long step to run',
      async () => ((await view()).jobs[0]?.steps.find((step) => step.name === 'Through the kill')?.status === 'in_progress' ? true : undefined),
      120_000,
    );

    const killedAt = Date.now();
    a.cli.child.kill('SIGKILL');
    await a.cli.exited;
    assert.ok(alive(guest.pid ?? 0), "node-a's guest outlives it (and cannot reach node-b)");
    const done = await eventually('node-b to fail the job', async () => {
      const current = await view();
      return current.conclusion === null ? undefined : current;
    }, 150_000);
    const recoveredMs = Date.now() - killedAt;
    process.stderr.write(`\nnode-a killed mid-step; node-b failed its job ${(recoveredMs / 1000).toFixed(1)} s after the kill\n`);

    const job = done.jobs[0];
    assert.equal(done.conclusion, 'failure', JSON.stringify(done));
    assert.match(job?.reason ?? '', /lost communication with the server/);
    assert.match(job?.reason ?? '', /svc node 'node-a'/);
    const steps = (job?.steps ?? []).map((step) => [step.name, step.conclusion]);
    assert.ok(!(job?.steps ?? []).some((step) => step.status === 'in_progress'), `no step is left running: ${JSON.stringify(steps)}`);
    assert.deepEqual(steps.find(([name]) => name === 'Through the kill'), ['Through the kill', 'cancelled']);
    assert.ok(recoveredMs <= 90_000, `recovered in ${recoveredMs} ms`);
    const nodes = await api<{ nodes: { id: string; state: string }[] }>(b.base, '/api/v1/nodes');
    assert.deepEqual(nodes.nodes.map((node) => [node.id, node.state]), [['node-a', 'lapsed'], ['node-b', 'live']]);

    // node-a comes back on its data directory: it adopts its guest (whose job was taken over) and
    // changes nothing of the failed job; stopping it stops the guest.
    const a2 = await serve(t, {}, envA);
    await a2.cli.waitFor(/adopted a guest a previous server left running/, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await view();
    assert.equal(after.conclusion, 'failure');
    assert.equal(after.jobs[0]?.reason, job?.reason);
    assert.equal(await a2.stop(), 0, a2.cli.output());
    assert.ok(!alive(guest.pid ?? 0), 'the adopted guest is stopped with the node that adopted it');
  });
});
