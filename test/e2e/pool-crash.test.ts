/**
 * A brief outage of the control plane does not fail work: `kill -9` of `svc serve` while a step
 * of a job runs on a pool guest, a new `svc serve` on the same data directory a few seconds
 * later, and the job completes `success` (the guest outlived the server, its runner retried its
 * reports, the new server adopted it). One server per backend; prints the recovery time.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { RunView } from '../../plugins/engine/run-view.js';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { gitRepository, startServerWithPool, svcRun, useBundle, type PoolServer } from '../local-runs/run-cli-harness.js';
import { isolateGitConfig } from '../snapshots/support.js';
import { api, eventually } from '../vm-pool/support.js';

isolateGitConfig();
after(useBundle('e2e-crash'));

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const probe = await createNamespaceBackend({ logger: silent, dataDir: tmpdir() }).probe();

const CRASH = `name: crash
on: push
jobs:
  survive:
    runs-on: ubuntu-latest
    steps:
      - name: Before the crash
        run: echo "before the crash"
      - name: Through the crash
        run: sleep 10 && echo "slept through the crash"
      - name: After the crash
        run: echo "after the restart"
`;

for (const backend of ['process', 'namespace'] as const) {
  const skip = backend === 'namespace' && !probe.ok ? `namespace guests unavailable here: ${probe.reason}` : false;
  if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);

  describe(`a crash of svc serve while a job runs, ${backend} backend`, { skip }, () => {
    let server: PoolServer;
    before(async () => {
      server = await startServerWithPool(backend, { warm: 1, max: 2, restartable: true });
    });
    after(async () => {
      await server?.stop();
    });

    it('kill -9 of svc serve mid-step, restarted 2 s later: the job completes success', async (t) => {
      const repo = await gitRepository({ '.github/workflows/crash.yml': CRASH });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      t.after(() => void run.child.kill('SIGKILL'));
      await run.waitFor(/^svc run: run \d+ of /m, 60_000);
      const runId = Number(/^svc run: run (\d+) of /m.exec(run.stderr())?.[1]);
      const view = () => api<RunView>(server.base, `/api/v1/runs/${runId}`);
      await eventually(
        'the sleeping step to run',
        async () => ((await view()).jobs[0]?.steps.find((step) => step.name === 'Through the crash')?.status === 'in_progress' ? true : undefined),
        120_000,
      );

      const killedAt = Date.now();
      await server.crashAndRestart(2_000);
      const restartedMs = Date.now() - killedAt;
      const done = await eventually('the job to complete after the restart', async () => {
        const current = await view();
        return current.conclusion === null ? undefined : current;
      }, 180_000);
      const recoveredMs = Date.now() - killedAt;
      process.stderr.write(`\n${backend}: svc serve killed mid-step; ready again after ${(restartedMs / 1000).toFixed(1)} s; the job completed ${(recoveredMs / 1000).toFixed(1)} s after the kill (${done.conclusion})\n`);

      const job = done.jobs[0];
      assert.equal(done.conclusion, 'success', `${JSON.stringify(job)}\n${server.serve().stdout()}`);
      assert.equal(job?.conclusion, 'success');
      assert.equal(job?.reason, null);
      const steps = (job?.steps ?? []).map((step) => [step.name, step.conclusion]).filter(([name]) => name !== 'Set up job' && name !== 'Complete job');
      assert.deepEqual(steps, [
        ['Before the crash', 'success'],
        ['Through the crash', 'success'],
        ['After the crash', 'success'],
      ]);
      assert.match(server.serve().stdout(), /adopted a guest a previous server left running/);
    });
  });
}
