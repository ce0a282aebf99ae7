/**
 * `svc-runner run` on the broker + run-service flow (RUNNER-PROTOCOL.md §2.5-§2.8): a runner
 * configured while SVC_RUNNER_FLOW=broker has `useV2Flow` in `.runner` and polls the broker; a
 * legacy-configured one is moved over by BrokerMigration. Jobs are acquired with `acquirejob`,
 * kept with `renewjob` (job token), and completed by the worker or — when it crashes — by the
 * listener's own `completejob`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RUNNER_BACKENDS } from '../runner-protocol/runner-host.js';
import { configure, finishedJob, queueRun, readWorkerLog, runnerCli, svcHost, tempDir, testWorkerEnv } from './listener-harness.js';

for (const backend of RUNNER_BACKENDS) {
  describe(`svc-runner run --once, broker flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('polls the broker, acquires the job, and the worker completes it with completejob', async (t) => {
      const h = await svcHost(t, { kind: backend.kind, broker: true });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, 'broker-01');
      const settings = JSON.parse(readFileSync(join(root, '.runner'), 'utf8')) as Record<string, unknown>;
      assert.equal(settings['useV2Flow'], true);
      assert.equal(settings['serverUrlV2'], `${h.baseUrl}/broker/`);

      const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('complete:succeeded', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.match(cli.output(), /Job build completed with result: Succeeded/);
      assert.equal((await finishedJob(h, job.id)).status, 'success');
      const entries = readWorkerLog(log);
      assert.equal(entries.find((e) => e.event === 'job')?.['messageType'], 'RunnerJobRequest', 'the worker got the acquirejob answer');
      assert.deepEqual(
        entries.filter((e) => e.event === 'reported').map((e) => [e['via'], e['status']]),
        [['completejob', 200]],
      );
    });

    it('completes the job as failed itself when the worker crashes', async (t) => {
      const h = await svcHost(t, { kind: backend.kind, broker: true });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, 'broker-02');
      const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('exit:7', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.match(cli.output(), /crashed \(exit code 7\)/);
      assert.equal((await finishedJob(h, job.id)).status, 'failure');
    });
  });
}

describe('svc-runner run, BrokerMigration', () => {
  it('follows a legacy session to the broker and runs the job there', async (t) => {
    const h = await svcHost(t, { broker: true });
    const root = tempDir(t);
    const log = join(tempDir(t), 'worker.log');
    await configure(t, h, root, 'migrating-01');
    // As if configured before the switch to the broker: no useV2Flow, no serverUrlV2.
    const path = join(root, '.runner');
    const { useV2Flow: _flow, serverUrlV2: _v2, ...legacy } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify(legacy, null, 2));

    const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('complete:succeeded', log));
    await cli.waitFor(/Listening for Jobs/);
    const { job } = await queueRun(h, ['self-hosted', 'linux']);
    assert.equal((await cli.exited).code, 0, cli.output());
    assert.equal((await finishedJob(h, job.id)).status, 'success');
    assert.equal(readWorkerLog(log).find((e) => e.event === 'job')?.['messageType'], 'RunnerJobRequest', 'the job came from the broker');
  });
});
