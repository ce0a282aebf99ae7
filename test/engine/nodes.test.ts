/**
 * Node identity and liveness on one store: each node's lease (registration, renewal, lapse,
 * a live id refused), and what a surviving node does with a dead node's running jobs (fails
 * them with the reason naming the node, closes their steps), what it leaves alone (a runner
 * still heard through another node), and what the dead node does when it comes back (nothing
 * to the taken-over job; its reconnect grace covers only its own jobs). SQLite runs the two
 * "nodes" as two engines on one database; PostgreSQL on two connections of one schema.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger, type SvcError } from '../../core/kernel/index.js';
import { createEngine, createNodeRegistry, type Engine, type NodeRegistration, type NodeRegistry } from '../../core/engine/index.js';
import { ENGINE_BACKENDS, engineFixture, type BackendKind, type EngineFixture } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';

const TTL = 15_000;

function registration(nodeId: string, instance: string, gone = false): NodeRegistration {
  return { nodeId, instance, host: 'host-1', pid: 4242, version: '0.0.0-test', ttlMs: TTL, predecessorGone: () => gone };
}

async function twoNodes(t: TestContext, kind: BackendKind): Promise<{ fx: EngineFixture; a: Engine; b: Engine; registry: NodeRegistry }> {
  const fx = await engineFixture(t, kind);
  const b =
    kind === 'postgres'
      ? await fx.secondNode('node-b')
      : createEngine({ database: fx.database, notifier: fx.notifier, clock: fx.clock, logger: createSilentLogger(), nodeId: 'node-b', serverUrl: () => 'http://127.0.0.1:9090' });
  const registry = createNodeRegistry({ database: fx.database, leases: fx.leases, clock: fx.clock });
  await registry.register(registration('node-a', 'a-1'));
  await registry.register(registration('node-b', 'b-1'));
  return { fx, a: fx.engine, b, registry };
}

const runner = { runnerId: 'r1', runnerName: 'svc-pool-abcdef-1', labels: ['self-hosted'] };

/** A job taken by a runner through `node`, with a finished step, a running one and one not started. */
async function runningJob(fx: EngineFixture, node: Engine) {
  const run = await fx.engine.createRun(runInput([job('build')]));
  const taken = await node.acquireJob(runner, 120_000);
  assert.ok(taken, 'the job is handed out');
  await fx.reporting.reportSteps(taken.job.id, runner.runnerId, [
    { number: 1, name: 'Set up job', status: 'success', conclusion: 'success' },
    { number: 2, name: 'Build', status: 'in_progress' },
    { number: 3, name: 'Test', status: 'queued' },
  ]);
  return { runId: run.id, jobId: taken.job.id };
}

for (const backend of ENGINE_BACKENDS) {
  describe(`nodes on ${backend.kind}`, { skip: backend.skip }, () => {
    it('a node registers, renews its lease, shows lapsed when it stops renewing, and stopped after a clean stop', async (t) => {
      const fx = await engineFixture(t, backend.kind);
      const registry = createNodeRegistry({ database: fx.database, leases: fx.leases, clock: fx.clock });
      const a = registration('node-a', 'a-1');
      await registry.register(a);
      let [node] = await registry.list();
      assert.equal(node?.id, 'node-a');
      assert.equal(node?.state, 'live');
      assert.equal(node?.host, 'host-1');
      fx.clock.advance(10_000);
      assert.equal(await registry.renew(a, 'http://node-a:9090'), true);
      fx.clock.advance(10_000);
      [node] = await registry.list();
      assert.equal(node?.state, 'live', 'renewed 10 s ago, with a 15 s lease');
      assert.equal(node?.url, 'http://node-a:9090');
      fx.clock.advance(6_000);
      [node] = await registry.list();
      assert.equal(node?.state, 'lapsed');
      assert.equal(await registry.renew(a, null), true, 'a lapsed lease nobody took is taken again');
      assert.equal((await registry.list())[0]?.state, 'live');
      await registry.release(a);
      assert.equal((await registry.list())[0]?.state, 'stopped');
      assert.equal((await registry.list())[0]?.leaseExpiresAt, fx.clock.now(), 'when it stopped');
      await registry.register(registration('node-a', 'a-2'));
      assert.equal((await registry.list())[0]?.state, 'live', 'a stopped node id is free to take');
    });

    it('a second process with a live node id is refused, naming SVC_NODE_ID; a dead predecessor on the same host is not in the way', async (t) => {
      const fx = await engineFixture(t, backend.kind);
      const registry = createNodeRegistry({ database: fx.database, leases: fx.leases, clock: fx.clock });
      await registry.register(registration('node-a', 'a-1'));
      await assert.rejects(registry.register(registration('node-a', 'a-2')), (error: SvcError) => {
        assert.equal(error.code, 'node_id_in_use');
        assert.equal(error.status, 409);
        assert.match(error.message, /node id 'node-a' is in use by a live node \(host host-1, pid 4242/);
        assert.match(error.message, /SVC_NODE_ID/);
        return true;
      });
      assert.equal(await registry.renew(registration('node-a', 'a-1'), null), true, 'the live holder keeps its lease');
      // The same id restarted right after a kill -9 on the same host: its predecessor's pid is gone.
      await registry.register(registration('node-a', 'a-3', true));
      assert.equal(await registry.renew(registration('node-a', 'a-1'), null), false, 'the predecessor lost the lease');
      fx.clock.advance(TTL + 1);
      await registry.register(registration('node-a', 'a-4'));
      assert.equal((await registry.list()).length, 1);
    });

    it('nodes gone for longer than asked are forgotten, unless a running job still names them', async (t) => {
      const { fx, a, registry } = await twoNodes(t, backend.kind);
      await runningJob(fx, a);
      await registry.release(registration('node-b', 'b-1'));
      fx.clock.advance(8 * 24 * 3600_000);
      assert.equal(await registry.prune(7 * 24 * 3600_000), 1);
      assert.deepEqual((await registry.list()).map((node) => node.id), ['node-a'], "node-a's lease lapsed a week ago, but its job still runs");
    });

    it("a dead node's running job fails once its runner is unheard for a renewal, with the reason naming the node, and its steps closed", async (t) => {
      const { fx, a, b, registry } = await twoNodes(t, backend.kind);
      const { runId, jobId } = await runningJob(fx, a);
      assert.equal((await b.getJob(jobId))?.nodeId, 'node-a');
      // node-a dies (kill -9: no release); node-b goes on renewing.
      fx.clock.advance(20_000);
      await registry.renew(registration('node-b', 'b-1'), null);
      assert.equal((await registry.list()).find((node) => node.id === 'node-a')?.state, 'lapsed');
      assert.equal((await b.sweep()).deadNodeJobs, 0, 'its runner may be renewing through node-b: it gets one renewal and a retry');
      fx.clock.advance(56_000);
      const report = await b.sweep();
      assert.equal(report.deadNodeJobs, 1);
      assert.equal(report.lostJobs, 0, 'failed before its own 120 s lease ran out');
      const failed = await b.getJob(jobId);
      assert.equal(failed?.status, 'failure');
      assert.match(failed?.reason ?? '', /^The self-hosted runner: svc-pool-abcdef-1 lost communication with the server\./);
      assert.match(failed?.reason ?? '', /svc node 'node-a'/);
      assert.equal((await b.getRun(runId))?.status, 'failure');
      const steps = (await fx.reporting.listSteps(runId)).map((step) => [step.name, step.status, step.conclusion, step.completedAt !== null]);
      assert.deepEqual(steps, [
        ['Set up job', 'success', 'success', false],
        ['Build', 'cancelled', 'cancelled', true],
        ['Test', 'skipped', 'skipped', true],
      ]);
      assert.equal((await b.sweep()).deadNodeJobs, 0, 'once');
    });

    it("a dead node's job whose runner renews through another node is kept", async (t) => {
      const { fx, a, b, registry } = await twoNodes(t, backend.kind);
      const { jobId } = await runningJob(fx, a);
      fx.clock.advance(30_000);
      await registry.renew(registration('node-b', 'b-1'), null);
      // The guest outlived node-a; one URL in front sends its renewal to node-b.
      assert.equal((await b.renewJob(jobId, runner.runnerId, 90_000)).held, true);
      assert.equal((await b.getJob(jobId))?.nodeId, 'node-b');
      fx.clock.advance(60_000);
      await registry.renew(registration('node-b', 'b-1'), null);
      const report = await b.sweep();
      assert.equal(report.deadNodeJobs + report.lostJobs, 0);
      assert.equal((await b.getJob(jobId))?.status, 'in_progress');
      assert.equal(await b.completeJob(jobId, runner.runnerId, { outcome: 'success' }), true);
    });

    it("a guest of a dead node's pool that last reported through a live node fails once it is unheard (the machine took it along), naming its home node", async (t) => {
      const { fx, b, registry } = await twoNodes(t, backend.kind);
      const guest = { ...runner, homeNode: 'node-a' };
      await fx.engine.createRun(runInput([job('build')]));
      // node-a's guest, behind one URL: its poll and its renewals land on node-b.
      const taken = await b.acquireJob(guest, 120_000);
      assert.ok(taken);
      assert.deepEqual([(await b.getJob(taken.job.id))?.nodeId, (await b.getJob(taken.job.id))?.homeNodeId], ['node-b', 'node-a']);
      fx.clock.advance(50_000);
      assert.equal((await b.renewJob(taken.job.id, guest.runnerId, 120_000)).held, true);
      // node-a's machine dies with its guest; node-b lives on and hears nothing more.
      for (let elapsed = 0; elapsed < 70_000; elapsed += 10_000) {
        fx.clock.advance(10_000);
        await registry.renew(registration('node-b', 'b-1'), null);
        assert.equal((await b.sweep()).deadNodeJobs, 0, 'within a renewal and its retry the guest may still be alive');
      }
      fx.clock.advance(10_000);
      await registry.renew(registration('node-b', 'b-1'), null);
      const report = await b.sweep();
      assert.equal(report.deadNodeJobs, 1);
      assert.equal(report.lostJobs, 0, 'before its own lease ran out');
      const failed = await b.getJob(taken.job.id);
      assert.equal(failed?.status, 'failure');
      assert.match(failed?.reason ?? '', /svc node 'node-a' whose built-in pool launched its runner/);
    });

    it("a live node's guest is kept however its home node's peers fare; a runner of no pool is left to its lease", async (t) => {
      const { fx, a, b, registry } = await twoNodes(t, backend.kind);
      await fx.engine.createRun(runInput([job('one')]));
      await fx.engine.createRun(runInput([job('two')]));
      const own = await a.acquireJob({ ...runner, runnerId: 'g1', homeNode: 'node-a' }, 120_000);
      const external = await a.acquireJob({ runnerId: 'x1', runnerName: 'laptop', labels: ['self-hosted'] }, 120_000);
      assert.ok(own && external);
      assert.equal((await a.getJob(external.job.id))?.homeNodeId, null);
      // node-b dies; node-a lives, its runners quiet within their leases.
      for (let elapsed = 0; elapsed < 100_000; elapsed += 10_000) {
        fx.clock.advance(10_000);
        await registry.renew(registration('node-a', 'a-1'), null);
        assert.equal((await a.sweep()).deadNodeJobs, 0);
      }
      assert.equal((await a.getJob(own.job.id))?.status, 'in_progress');
      assert.equal((await a.getJob(external.job.id))?.status, 'in_progress');
      void b;
    });

    it('a node whose lease is live keeps its jobs, however long its runner is quiet within its lease', async (t) => {
      const { fx, a, b, registry } = await twoNodes(t, backend.kind);
      const { jobId } = await runningJob(fx, a);
      for (let elapsed = 0; elapsed < 110_000; elapsed += 10_000) {
        fx.clock.advance(10_000);
        await registry.renew(registration('node-a', 'a-1'), null);
        await registry.renew(registration('node-b', 'b-1'), null);
        assert.equal((await b.sweep()).deadNodeJobs, 0);
      }
      assert.equal((await b.getJob(jobId))?.status, 'in_progress');
    });

    it('the dead node restarted leaves the taken-over job alone, and its reconnect grace covers only its own jobs', async (t) => {
      const { fx, a, b, registry } = await twoNodes(t, backend.kind);
      const { jobId: lostJob } = await runningJob(fx, a);
      fx.clock.advance(80_000);
      await registry.renew(registration('node-b', 'b-1'), null);
      assert.equal((await b.sweep()).deadNodeJobs, 1);
      // Meanwhile node-b hands out another job; it is node-b's.
      await fx.engine.createRun(runInput([job('other')]));
      const other = await b.acquireJob({ ...runner, runnerId: 'r2', runnerName: 'r2' }, 120_000);
      assert.ok(other);
      const otherLease = (await b.getJob(other.job.id))?.leaseExpiresAt;
      // node-a comes back (the same id, a new process) with its adopted guest.
      fx.clock.advance(100_000);
      await registry.register(registration('node-a', 'a-2'));
      const restarted = createEngine({ database: fx.database, notifier: fx.notifier, clock: fx.clock, logger: createSilentLogger(), nodeId: 'node-a', serverUrl: () => 'http://127.0.0.1:9090' });
      assert.equal(await restarted.grantReconnectGrace(90_000), 0, "node-b's running job is not node-a's to extend; the failed one is finished");
      assert.equal((await b.getJob(other.job.id))?.leaseExpiresAt, otherLease);
      assert.equal(await restarted.completeJob(lostJob, runner.runnerId, { outcome: 'success' }), false, 'the adopted guest cannot complete a job that was taken over');
      assert.equal((await restarted.renewJob(lostJob, runner.runnerId, 90_000)).held, false);
      assert.equal((await b.getJob(lostJob))?.status, 'failure');
      // Its own running jobs still get the grace after a restart.
      await fx.engine.createRun(runInput([job('mine')]));
      const mine = await restarted.acquireJob({ ...runner, runnerId: 'r3', runnerName: 'r3' }, 1_000);
      assert.ok(mine);
      fx.clock.advance(5_000);
      assert.equal(await restarted.grantReconnectGrace(90_000), 1);
    });

    it('a runner lost on a live node (its lease lapsed) fails as before, and its open steps are closed too', async (t) => {
      const { fx, a } = await twoNodes(t, backend.kind);
      const { runId, jobId } = await runningJob(fx, a);
      fx.clock.advance(121_000);
      const report = await a.sweep();
      assert.equal(report.lostJobs, 1);
      assert.match((await a.getJob(jobId))?.reason ?? '', /lost communication with the server/);
      const open = (await fx.reporting.listSteps(runId)).filter((step) => step.status === 'in_progress' || step.status === 'queued');
      assert.deepEqual(open, []);
    });
  });
}
