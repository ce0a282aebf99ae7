import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runnerSocketServerFactory } from './runner-socket-server.js';

describe('the runner socket server', () => {
  it('creates the socket file 0600 at bind time, whatever the umask, and restores the umask', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sock-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'runner.sock');
    const server = runnerSocketServerFactory((_request, response) => response.end(), {});
    const previous = process.umask(0);
    try {
      // Checked in the listen callback, before anything could tighten the mode afterwards.
      const mode = await new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => resolve(lstatSync(path).mode & 0o777));
      });
      assert.equal(mode, 0o600);
      assert.equal(process.umask(0), 0, 'the umask is back to what it was');
    } finally {
      process.umask(previous);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
