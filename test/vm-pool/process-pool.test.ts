/**
 * The built-in pool on the process backend, through `svc serve` as a user runs it: warm guests
 * register as runners, take the jobs of a submitted run one each (a replacement launched for
 * every guest that takes one), leave a job no guest can serve queued, and go away with the server
 * that stops them; a killed server's guests outlive it and are adopted by the next one.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { isolateGitConfig } from '../snapshots/support.js';
import { createHostEnv } from '../support/host-env.js';
import { onCleanup } from '../support/services.js';
import { alive, eventually, freePort, poolView, registerJitRunner, runnerNames, runView, serve, submitWorkflow } from './support.js';

isolateGitConfig();

const WORKFLOW = `name: pool
on: push
jobs:
  one:
    runs-on: ubuntu-latest
    steps:
      - run: echo "one on $RUNNER_NAME"
      - run: test -n "$HOME" && test -d "$RUNNER_TEMP"
      # Steps get the usual umask, not svc serve's 077: files 0644, directories 0755, as on GitHub.
      - run: test "$(umask)" = 0022 && touch made && mkdir dir && test "$(stat -c %a made) $(stat -c %a dir)" = "644 755"
  two:
    runs-on: [self-hosted, linux]
    steps:
      - run: echo "two on $RUNNER_NAME"
  three:
    runs-on: ubuntu-latest
    steps:
      - run: echo "three on $RUNNER_NAME"
  windows:
    runs-on: [self-hosted, windows]
    steps:
      - run: echo "never on a pool guest"
`;

describe('built-in pool, process backend', () => {
  it('runs each job on its own warm guest, leaves unservable jobs queued, and takes its guests down with the server', async (t) => {
    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info', SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '2', SVC_POOL_STOP_GRACE_SECONDS: '5' });
    onCleanup(t, () => hostEnv.cleanup());
    const served = await serve(t, {}, hostEnv);
    assert.match(served.cli.output(), /the process backend does not isolate guests/);

    const idle = await eventually('a warm guest waiting for a job', async () => (await poolView(served.base)).guests?.find((guest) => guest.phase === 'idle'));
    assert.ok((await runnerNames(served.base)).includes(idle.guest_id), 'the guest is a registered runner, named after it');

    const runId = await submitWorkflow(served.base, WORKFLOW);
    const done = await eventually(
      'jobs one, two and three to finish',
      async () => {
        const view = await runView(served.base, runId);
        return view.jobs.filter((job) => job.name !== 'windows').every((job) => job.status === 'success' || job.status === 'failure') ? view : undefined;
      },
      240_000,
    );
    const served3 = done.jobs.filter((job) => job.name !== 'windows');
    assert.deepEqual(
      served3.map((job) => [job.name, job.conclusion]),
      [
        ['one', 'success'],
        ['two', 'success'],
        ['three', 'success'],
      ],
    );
    const names = served3.map((job) => job.runner_name ?? '');
    assert.ok(names.every((name) => name.startsWith('svc-pool-')), `pool guests ran them: ${names.join(', ')}`);
    assert.equal(new Set(names).size, 3, `no guest runs two jobs: ${names.join(', ')}`);
    const windows = done.jobs.find((job) => job.name === 'windows');
    assert.equal(windows?.status, 'queued', 'a job no guest can serve waits for an external runner');

    const pool = await eventually('a warm guest again', async () => {
      const view = await poolView(served.base);
      return view.guests?.some((guest) => guest.phase === 'idle') ? view : undefined;
    });
    assert.ok((pool.jobs_taken ?? 0) >= 3 && (pool.launched ?? 0) >= 4, `replacements were launched: ${JSON.stringify(pool)}`);
    const pids = (pool.guests ?? []).map((guest) => guest.pid).filter((pid): pid is number => pid !== null);
    assert.ok(pids.length > 0);

    assert.equal(await served.stop(), 0, served.cli.output());
    assert.match(served.cli.output(), /built-in pool: stopping guests/);
    assert.deepEqual(pids.filter(alive), [], 'no guest process outlives the server');
    const poolDir = join(hostEnv.env.SVC_DATA_DIR ?? '', 'pool');
    assert.deepEqual(existsSync(poolDir) ? readdirSync(poolDir).filter((name) => name.startsWith('svc-pool-')) : [], [], 'guest roots are deleted');

    // The same data directory without the pool: no guest registration is left behind.
    const again = await serve(t, { SVC_POOL_BACKEND: 'off' }, hostEnv);
    assert.deepEqual((await runnerNames(again.base)).filter((name) => name.startsWith('svc-pool-')), []);
  });

  it("a server killed with SIGKILL leaves its guests running; the next start adopts them and removes only its own unrecorded leftovers", async (t) => {
    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info', SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_LISTEN: `127.0.0.1:${await freePort()}`, SVC_CREDENTIAL_STORE: 'file' });
    onCleanup(t, () => hostEnv.cleanup());
    const killed = await serve(t, {}, hostEnv);
    const first = await eventually('a warm guest', async () => (await poolView(killed.base)).guests?.find((guest) => guest.phase === 'idle'));
    assert.match(first.guest_id, /^svc-pool-[0-9a-f]{6}-[0-9a-f]{8}$/);
    assert.ok(first.pid !== null);
    const tag = first.guest_id.slice(0, 'svc-pool-000000-'.length);
    // Another node's guest on the same store: registered under another tag.
    const otherNode = await registerJitRunner(killed.base, 'svc-pool-0000ff-0123abcd');
    // This node's guest that left no record (killed while it was starting): its registration and root go.
    const unrecorded = await registerJitRunner(killed.base, `${tag}deadbeef`);
    const poolDir = join(hostEnv.env.SVC_DATA_DIR ?? '', 'pool');
    mkdirSync(join(poolDir, unrecorded));
    killed.cli.child.kill('SIGKILL');
    await killed.cli.exited;
    // Guests used to die 2-5 s after their server (their stdout was its pipe).
    await delay(6_000);
    assert.ok(alive(first.pid), 'the guest outlives its killed server');

    const next = await serve(t, {}, hostEnv);
    await next.cli.waitFor(/adopted a guest a previous server left running/, 30_000);
    assert.match(next.cli.output(), /"removed":1,"msg":"built-in pool: removed runner registrations of guests a previous server left behind"/);
    const names = await runnerNames(next.base);
    assert.ok(names.includes(first.guest_id), `the adopted guest keeps its registration: ${names.join(', ')}`);
    assert.ok(!names.includes(unrecorded), `an unrecorded guest of this node is unregistered: ${names.join(', ')}`);
    assert.ok(names.includes(otherNode), "another node's guest is left alone");
    assert.ok(!existsSync(join(poolDir, unrecorded)), "the unrecorded guest's root is removed");
    const adopted = await eventually('the adopted guest waiting for a job again', async () => (await poolView(next.base)).guests?.find((guest) => guest.guest_id === first.guest_id && guest.phase === 'idle'));
    assert.equal(adopted.pid, first.pid);
    assert.equal((await poolView(next.base)).guests?.length, 1, 'the adopted guest is the warm one: no second guest');

    assert.equal(await next.stop(), 0, next.cli.output());
    assert.ok(!alive(first.pid), 'the adopted guest is stopped with the server that adopted it');
    assert.ok(!existsSync(join(poolDir, first.guest_id)), 'and its root removed');
  });
});
