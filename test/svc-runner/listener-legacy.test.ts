/**
 * `svc-runner run` on the legacy flow against `svc serve` (RUNNER-PROTOCOL.md §2.1-§2.8, §6):
 * configured with the CLI, started with `run --once`, the job handed to a test worker over the
 * official framing; what the engine records is asserted, not just the exit code.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RUNNER_BACKENDS } from '../runner-protocol/runner-host.js';
import { configure, finishedJob, queueRun, readWorkerLog, runToEnd, runnerCli, svcHost, tempDir, testWorkerEnv } from './listener-harness.js';

describe('svc-runner run without configuration', () => {
  it("says where it looked and to configure first (the spec's message)", async (t) => {
    const root = tempDir(t);
    const { code, output } = await runToEnd(t, ['run', '--runner-root', root]);
    assert.equal(code, 1);
    assert.match(output, /loading runner configuration from .+ failed: there is no \.runner file; run `svc-runner configure .*` first/);
    assert.ok(output.includes(root), output);
  });
});

for (const backend of RUNNER_BACKENDS) {
  describe(`svc-runner run --once, legacy flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('takes one job, hands it to the worker, and exits once the worker completed it', async (t) => {
      const h = await svcHost(t, { kind: backend.kind });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, 'legacy-01');
      const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('complete:succeeded', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      const { code } = await cli.exited;
      const output = cli.output();
      assert.equal(code, 0, output);
      assert.match(output, /√ Connected to GitHub/);
      assert.match(output, /Current runner version: '2\.337\.0'/);
      assert.match(output, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ: Running job: build/);
      assert.match(output, /Job build completed with result: Succeeded/);

      const finished = await finishedJob(h, job.id);
      assert.equal(finished.status, 'success');
      const entries = readWorkerLog(log);
      const handed = entries.find((e) => e.event === 'job');
      assert.equal(handed?.['type'], 1, 'NewJobRequest');
      assert.equal(handed?.['messageType'], 'PipelineAgentJobRequest');
      assert.deepEqual(entries.find((e) => e.event === 'started')?.['argv'], ['worker', '--runner-root', root], 'the worker gets the runner root');
      assert.equal(entries.find((e) => e.event === 'reported')?.['status'], 204, 'the worker completed the job itself (plan version 12)');
      assert.ok(existsSync(join(root, '.runner')), '--once keeps the configuration');
    });

    it('reports a crashed worker as failed itself', async (t) => {
      const h = await svcHost(t, { kind: backend.kind });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      await configure(t, h, root, 'legacy-02');
      const cli = runnerCli(t, ['run', '--once', '--runner-root', root], testWorkerEnv('exit:1', log));
      await cli.waitFor(/Listening for Jobs/);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.match(cli.output(), /The worker of job build crashed \(exit code 1\):\ntest worker: simulated crash/);
      assert.match(cli.output(), /Job build completed with result: Failed/);
      const finished = await finishedJob(h, job.id);
      assert.equal(finished.status, 'failure');
      assert.equal(finished.reason, 'The runner worker exited with exit code 1 before it reported the job.', 'the job says what happened');
      assert.equal(readWorkerLog(log).some((e) => e.event === 'reported'), false, 'the worker reported nothing');
    });
  });
}

describe('svc-runner run, jobs one after another', () => {
  it('keeps listening after a job when not --once, and takes the next', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    const log = join(tempDir(t), 'worker.log');
    await configure(t, h, root, 'legacy-03');
    const cli = runnerCli(t, ['run', '--runner-root', root], testWorkerEnv('complete:succeeded', log));
    await cli.waitFor(/Listening for Jobs/);
    const first = await queueRun(h, ['self-hosted', 'linux']);
    assert.equal((await finishedJob(h, first.job.id)).status, 'success');
    const second = await queueRun(h, ['self-hosted', 'linux']);
    assert.equal((await finishedJob(h, second.job.id)).status, 'success');
    await cli.waitFor(/(?:Job build completed with result: Succeeded[\s\S]*){2}/);
    assert.equal(cli.child.exitCode, null, 'still listening');
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    assert.equal(code, 0, cli.output());
    assert.match(cli.output(), /Exiting\.\.\./);
    assert.equal(readWorkerLog(log).filter((e) => e.event === 'job').length, 2);
  });
});

describe('svc-runner configured --ephemeral', () => {
  it('exits after its first job without --once and removes its configuration', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    const log = join(tempDir(t), 'worker.log');
    await configure(t, h, root, 'ephemeral-01', ['--ephemeral']);
    const cli = runnerCli(t, ['run', '--runner-root', root], testWorkerEnv('complete:succeeded', log));
    await cli.waitFor(/Listening for Jobs/);
    const { job } = await queueRun(h, ['self-hosted', 'linux']);
    assert.equal((await cli.exited).code, 0, cli.output());
    assert.doesNotMatch(cli.output(), /--once' is going to be deprecated/);
    assert.equal((await finishedJob(h, job.id)).status, 'success');
    for (const name of ['.runner', '.credentials', '.credentials_rsaparams']) assert.equal(existsSync(join(root, name)), false, `${name} removed`);
    assert.ok(existsSync(join(root, '_work')), '_work/ stays');
  });
});

describe('svc-runner run with its own worker', () => {
  it('starts `svc-runner worker` for the job by default, and the job runs its script step', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    await configure(t, h, root, 'real-worker-01');
    const cli = runnerCli(t, ['run', '--once', '--runner-root', root]);
    await cli.waitFor(/Listening for Jobs/);
    const { job } = await queueRun(h, ['self-hosted', 'linux']);
    assert.equal((await cli.exited).code, 0, cli.output());
    assert.match(cli.output(), /Job build completed with result: Succeeded/);
    assert.equal((await finishedJob(h, job.id)).status, 'success');
    assert.ok(existsSync(join(root, '_work')), 'the job ran under the runner root');
  });
});
