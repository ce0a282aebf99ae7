import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../../core/kernel/index.js';
import { createFileCredentialStore } from './file-store.js';
import { createMemoryCredentialStore } from './memory-store.js';
import { createOsCredentialStore } from './os-store.js';

describe('file credential store', () => {
  it('keeps entries 0600 in a 0700 directory and survives a reopen', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'svc-cred-')), 'credentials');
    const store = await createFileCredentialStore(dir);
    await store.set('system-token', 'svc_abc');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'system-token')).mode & 0o777, 0o600);
    const reopened = await createFileCredentialStore(dir);
    assert.equal(await reopened.get('system-token'), 'svc_abc');
    assert.equal(reopened.persistent, true);
    await reopened.set('system-token', 'svc_new');
    assert.equal(await store.get('system-token'), 'svc_new');
    assert.deepEqual(readdirSync(dir), ['system-token'], 'no temp files left behind');
    assert.equal(await store.delete('system-token'), true);
    assert.equal(await store.get('system-token'), undefined);
    assert.equal(await store.delete('system-token'), false);
  });

  it('refuses names that could escape the directory', async () => {
    const store = await createFileCredentialStore(join(mkdtempSync(join(tmpdir(), 'svc-cred-')), 'c'));
    for (const name of ['../etc/passwd', 'a/b', '', 'UPPER', '..']) {
      await assert.rejects(store.set(name, 'x'), /invalid credential name/, name);
    }
  });
});

describe('memory credential store', () => {
  it('is not persistent and keeps values for the process only', async () => {
    const store = createMemoryCredentialStore();
    assert.equal(store.persistent, false);
    await store.set('k', 'v');
    assert.equal(await store.get('k'), 'v');
    assert.equal(await createMemoryCredentialStore().get('k'), undefined);
  });
});

describe('os credential store', () => {
  it('names what is missing when the host has no usable store', async () => {
    await assert.rejects(createOsCredentialStore('linux', { PATH: '/nonexistent' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /credential_store = "os" needs|D-Bus session/);
      assert.match(error.message, /use credential_store = "file"/);
      return true;
    });
    await assert.rejects(createOsCredentialStore('win32', {}), /not supported on win32/);
  });
});
