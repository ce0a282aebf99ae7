/**
 * Stopping jobs (RUNNER-PROTOCOL.md §4.9, §6.6; SPEC "Runner process"): a server cancel reaches
 * the worker as CancelRequest; an interrupt of the runner reaches it as RunnerShutdown and gives
 * the job its wind-down, after which a job still running is stopped and reported cancelled.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configure, delay, finishedJob, queueRun, readWorkerLog, runnerCli, svcHost, tempDir, testWorkerEnv } from './listener-harness.js';

async function waitForEntry(log: string, event: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!readWorkerLog(log).some((e) => e.event === event)) {
    if (Date.now() > until) throw new Error(`the test worker never logged '${event}': ${JSON.stringify(readWorkerLog(log))}`);
    await delay(50);
  }
}

for (const broker of [false, true]) {
  const flow = broker ? 'broker' : 'legacy';
  describe(`stopping a running job (${flow} flow)`, () => {
    it('forwards a server cancel to the worker as CancelRequest; the job ends cancelled', async (t) => {
      const h = await svcHost(t, { broker });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, `cancel-${flow}`);
      const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('await-stop', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      await waitForEntry(log, 'job');
      await h.engine.cancelJob(job.id);
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.match(cli.output(), /Job build was cancelled by the server/);
      assert.match(cli.output(), /Job build completed with result: Canceled/);
      assert.equal(readWorkerLog(log).find((e) => e.event === 'control')?.['type'], 2, 'CancelRequest');
      assert.equal((await finishedJob(h, job.id)).status, 'cancelled');
    });

    it('on SIGTERM sends RunnerShutdown and lets the job wind down', async (t) => {
      const h = await svcHost(t, { broker });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, `shutdown-${flow}`);
      const cli = runnerCli(t, ['run', '--runner-root', root], testWorkerEnv('await-stop', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      await waitForEntry(log, 'job');
      cli.child.kill('SIGTERM');
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.match(cli.output(), /Exiting\.\.\./);
      assert.equal(readWorkerLog(log).find((e) => e.event === 'control')?.['type'], 3, 'RunnerShutdown');
      assert.doesNotMatch(cli.output(), /did not stop in time/);
      assert.equal((await finishedJob(h, job.id)).status, 'cancelled');
    });

    it('stops a job still running after the wind-down and reports it cancelled itself', async (t) => {
      const h = await svcHost(t, { broker });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, `stuck-${flow}`);
      const cli = runnerCli(t, ['run', '--runner-root', root], { ...testWorkerEnv('hang', log), SVC_RUNNER_STOP_GRACE_SECONDS: '2' });
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      await waitForEntry(log, 'job');
      const stoppedAt = Date.now();
      cli.child.kill('SIGTERM');
      assert.equal((await cli.exited).code, 0, cli.output());
      const tookMs = Date.now() - stoppedAt;
      assert.ok(tookMs >= 2000, `the job had its 2 s wind-down (stopped after ${tookMs} ms)`);
      assert.match(cli.output(), /The job did not stop in time; stopping the worker\./);
      assert.match(cli.output(), /Job build completed with result: Canceled/);
      assert.equal(readWorkerLog(log).find((e) => e.event === 'control')?.['type'], 3, 'RunnerShutdown came first');
      assert.equal((await finishedJob(h, job.id)).status, 'cancelled');
    });
  });
}
