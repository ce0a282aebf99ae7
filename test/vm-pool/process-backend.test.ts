/**
 * The process backend's guests against real processes: a guest killed while its listener's
 * worker runs (the worker is in a session of its own, listed in the runner root's
 * `.svc-workers`) takes the worker with it, and leaves alone a process that only looks listed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RUNNER_WORKERS_DIR } from '../../core/protocol/index.js';
import { createProcessBackend } from '../../plugins/vm-pool/backends/process/index.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe('process backend', () => {
  it("a guest killed mid-job takes its listener's worker along (a session of its own), nothing else", async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'svc-process-guest-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    // A stranger whose pid is listed but who is no worker of this root: left alone.
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    t.after(() => void stranger.kill('SIGKILL'));
    // The "listener": starts a worker as svc-runner does (its own session, `worker --runner-root`),
    // lists it and the stranger, prints the worker's pid, and ignores SIGTERM (it must be killed).
    const listener = `
      const { spawn } = require('node:child_process');
      const fs = require('node:fs');
      const worker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'worker', '--runner-root', process.cwd()], { detached: true, stdio: 'ignore' });
      fs.mkdirSync('${RUNNER_WORKERS_DIR}', { recursive: true });
      fs.writeFileSync('${RUNNER_WORKERS_DIR}/' + worker.pid, '');
      fs.writeFileSync('${RUNNER_WORKERS_DIR}/' + ${stranger.pid}, '');
      console.log('worker ' + worker.pid);
      process.on('SIGTERM', () => undefined);
      setInterval(() => {}, 1000);`;
    let out = '';
    const guest = await createProcessBackend().launch({
      guestId: 'worker-test',
      command: process.execPath,
      args: ['-e', listener],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      runnerRoot: root,
      mounts: [],
      serverUrl: 'http://127.0.0.1:9',
      runnerSocket: undefined,
      network: false,
      limits: {},
      onOutput: (_stream, line) => (out += `${line}\n`),
    });
    t.after(() => guest.stop(0));
    for (const deadline = Date.now() + 10_000; !/worker \d+/.test(out) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
    const worker = Number(/worker (\d+)/.exec(out)?.[1]);
    assert.ok(worker > 0 && alive(worker), `the worker runs: ${out}`);
    const exit = await guest.stop(200);
    assert.equal(exit.signal, 'SIGKILL', 'the listener ignored SIGTERM and was killed');
    assert.equal(await gone(worker, 5000), true, "the worker went with its guest");
    assert.equal(alive(stranger.pid ?? 0), true, 'a listed pid that is no worker of this root is left alone');
    assert.equal(existsSync(join(root, RUNNER_WORKERS_DIR)), false, 'the list is cleared');
  });
});
