/**
 * `svc-runner run --jitconfig <blob>` (RUNNER-PROTOCOL.md §1.10), as the built-in pool starts it:
 * the blob the control plane minted carries the three root files; the runner writes them
 * owner-only, takes one job (JIT runners are ephemeral) and removes its configuration after it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { send } from '../runner-protocol/vss-client.js';
import { finishedJob, queueRun, readWorkerLog, runToEnd, runnerCli, svcHost, tempDir, testWorkerEnv } from './listener-harness.js';
import type { RunnerHost } from '../runner-protocol/runner-host.js';

async function jitConfig(h: RunnerHost, name: string): Promise<string> {
  const created = await send([], 'POST', `${h.baseUrl}/api/v1/runners/generate-jitconfig`, {
    headers: { authorization: `Bearer ${h.systemToken}` },
    json: { name, labels: ['self-hosted', 'Linux', 'X64', 'linux'], runner_group_id: 1 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return (created.body as { encoded_jit_config: string }).encoded_jit_config;
}

for (const broker of [false, true]) {
  describe(`svc-runner run --jitconfig (${broker ? 'broker' : 'legacy'} flow)`, () => {
    it('runs one job from the blob alone, then removes the configuration', async (t) => {
      const h = await svcHost(t, { broker });
      const root = tempDir(t);
      const log = join(tempDir(t), 'worker.log');
      const blob = await jitConfig(h, `jit-${broker ? 'broker' : 'legacy'}`);
      const cli = runnerCli(t, ['run', '--jitconfig', blob, '--runner-root', root], testWorkerEnv('complete:succeeded', log));
      await cli.waitFor(/Listening for Jobs/);
      assert.deepEqual(readdirSync(root).sort(), ['.credentials', '.credentials_rsaparams', '.runner']);
      const { job } = await queueRun(h, ['self-hosted', 'linux']);
      assert.equal((await cli.exited).code, 0, cli.output());
      assert.equal((await finishedJob(h, job.id)).status, 'success');
      assert.ok(readWorkerLog(log).some((e) => e.event === 'job'));
      assert.match(cli.output(), /√ Removed \.credentials[\s\S]*√ Removed \.runner/);
      for (const name of ['.runner', '.credentials', '.credentials_rsaparams']) assert.equal(existsSync(join(root, name)), false, `${name} removed (ephemeral)`);
    });
  });
}

describe('svc-runner run --jitconfig, bad blobs', () => {
  it('refuses a value that is not a JIT config, saying what is wrong', async (t) => {
    const root = tempDir(t);
    const notBase64 = await runToEnd(t, ['run', '--jitconfig', '%%%', '--runner-root', root]);
    assert.equal(notBase64.code, 1);
    assert.match(notBase64.output, /the --jitconfig value is not base64/);

    const stray = Buffer.from(JSON.stringify({ '../escape': Buffer.from('x').toString('base64') })).toString('base64');
    const strayFile = await runToEnd(t, ['run', '--jitconfig', stray, '--runner-root', root]);
    assert.equal(strayFile.code, 1);
    assert.match(strayFile.output, /holds '\.\.\/escape'; only \.runner, \.credentials, \.credentials_rsaparams are accepted/);

    const partial = Buffer.from(JSON.stringify({ '.runner': Buffer.from('{}').toString('base64') })).toString('base64');
    const missing = await runToEnd(t, ['run', '--jitconfig', partial, '--runner-root', root]);
    assert.equal(missing.code, 1);
    assert.match(missing.output, /lacks \.credentials, \.credentials_rsaparams/);
    assert.deepEqual(readdirSync(root), [], 'nothing written');
  });
});
