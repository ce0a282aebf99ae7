import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, it } from 'node:test';
import { predecessorGone } from './node-lease.js';

describe("a node id's previous holder", () => {
  it('is a dead predecessor only on this host, with its pid gone (or ours: a container restarted as pid 1)', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    try {
      assert.equal(predecessorGone({ host: hostname(), pid }), false, 'a live process holds it');
      assert.equal(predecessorGone({ host: 'another-host', pid }), false, 'another host: only the lapse tells');
      assert.equal(predecessorGone({ host: hostname(), pid: process.pid }), true);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    assert.equal(predecessorGone({ host: hostname(), pid }), true, 'its process is gone');
    assert.equal(predecessorGone({ host: 'another-host', pid }), false);
  });
});
