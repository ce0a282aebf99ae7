/**
 * `svc-runner remove --token` (RUNNER-PROTOCOL.md §1.11; SPEC "Command-line client"): deregisters
 * and deletes the three root files, leaving `_work/` and `externals/`; when the server cannot
 * deregister, a warning and the files are deleted all the same.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configure, runToEnd, svcHost, tempDir } from './listener-harness.js';

const ROOT_FILES = ['.runner', '.credentials', '.credentials_rsaparams'];

for (const broker of [false, true]) {
  describe(`svc-runner remove (${broker ? 'runner-admin' : 'agents'} registration)`, () => {
    it('deregisters the runner and deletes the three files, leaving _work/ and externals/', async (t) => {
      const h = await svcHost(t, { broker });
      const root = tempDir(t);
      await configure(t, h, root, 'removable');
      mkdirSync(join(root, 'externals', 'node20'), { recursive: true });
      writeFileSync(join(root, '_work', 'keep.txt'), 'job output');

      const { code, output } = await runToEnd(t, ['remove', '--token', h.systemToken, '--runner-root', root]);
      assert.equal(code, 0, output);
      assert.match(output, /√ Runner removed successfully/);
      assert.match(output, /√ Removed \.credentials\n√ Removed \.runner/);
      for (const name of ROOT_FILES) assert.equal(existsSync(join(root, name)), false, `${name} deleted`);
      assert.ok(existsSync(join(root, '_work', 'keep.txt')), '_work/ stays');
      assert.ok(existsSync(join(root, 'externals', 'node20')), 'externals/ stays');

      // The name is free again on the server: configuring it anew needs no --replace.
      const again = await configure(t, h, tempDir(t), 'removable');
      assert.match(again, /√ Runner successfully added/);
    });
  });
}

describe('svc-runner remove, server down', () => {
  it('warns that it could not deregister and still deletes the files', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    await configure(t, h, root, 'orphan');
    await h.host.stop();
    const { code, output } = await runToEnd(t, ['remove', '--token', h.systemToken, '--runner-root', root]);
    assert.equal(code, 0, output);
    assert.match(output, /Warning: could not remove runner 'orphan' \(id \d+\) from http:\/\/127\.0\.0\.1:\d+\/acme\/widgets: .*ECONNREFUSED.*Deleting the local configuration anyway/);
    for (const name of ROOT_FILES) assert.equal(existsSync(join(root, name)), false, `${name} deleted`);
    assert.ok(existsSync(join(root, '_work')), '_work/ stays');
  });

  it('with a wrong token, warns with the server\'s reason and still deletes the files', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    await configure(t, h, root, 'kept-on-server');
    const { code, output } = await runToEnd(t, ['remove', '--token', 'wrong-token', '--runner-root', root]);
    assert.equal(code, 0, output);
    assert.match(output, /Warning: could not remove runner 'kept-on-server'.*answered 401/);
    for (const name of ROOT_FILES) assert.equal(existsSync(join(root, name)), false);
  });
});
