import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSilentLogger } from '../../core/kernel/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { streamOf, tarOf } from '../../test/snapshots/support.js';
import { cleanGit } from './git-process.js';
import { createGitSnapshotStore } from './index.js';
import { ObjectReader, ObjectReaders } from './object-reader.js';

describe('git object reader', () => {
  it('answers objects in the order asked, missing ones as undefined, and nothing once closed', async (t) => {
    const root = await tempDir(t);
    const store = createGitSnapshotStore({ root, logger: createSilentLogger(), clock: new ManualClock() });
    const { sha, tree } = await store.importTar('acme/app', streamOf(await tarOf([{ name: 'a.txt', content: 'a\n' }])), {
      message: 'm',
      authorName: 'A',
      authorEmail: 'a@example.com',
      timestamp: 0,
    });
    const reader = new ObjectReader(cleanGit(root), store.repositoryPath('acme/app'));
    const [commit, peeled, missing, root_] = await Promise.all([
      reader.read(sha),
      reader.read(`${sha}^{commit}`),
      reader.read('0'.repeat(40)),
      reader.read(tree),
    ]);
    assert.equal(commit?.type, 'commit');
    assert.match(commit?.content.toString('utf8') ?? '', new RegExp(`^tree ${tree}\n`));
    assert.equal(peeled?.oid, sha);
    assert.equal(missing, undefined);
    assert.equal(root_?.type, 'tree');
    await assert.rejects(reader.read('a\nb'), /one line/);
    reader.close();
    assert.equal(reader.alive, false);
    await assert.rejects(reader.read(sha), /ended/);
  });

  it('starts a new process for a repository after its reader was closed', async (t) => {
    const root = await tempDir(t);
    const store = createGitSnapshotStore({ root, logger: createSilentLogger(), clock: new ManualClock() });
    const { sha } = await store.importTar('acme/app', streamOf(await tarOf([])), { message: 'm', authorName: 'A', authorEmail: 'a@example.com', timestamp: 0 });
    const readers = new ObjectReaders(cleanGit(root));
    const gitDir = store.repositoryPath('acme/app');
    assert.equal((await readers.read(gitDir, sha))?.type, 'commit');
    readers.close(gitDir);
    assert.equal((await readers.read(gitDir, sha))?.type, 'commit');
    readers.close(gitDir);
  });

  it('fails what waits when its process dies, and starts a new one on the next read', async (t) => {
    const root = await tempDir(t);
    const readers = new ObjectReaders(cleanGit(root));
    const store = createGitSnapshotStore({ root, logger: createSilentLogger(), clock: new ManualClock() });
    const gitDir = store.repositoryPath('acme/app');
    await assert.rejects(readers.read(gitDir, 'HEAD'), /not a git repository/, 'no repository there yet');
    const { sha } = await store.importTar('acme/app', streamOf(await tarOf([])), { message: 'm', authorName: 'A', authorEmail: 'a@example.com', timestamp: 0 });
    assert.equal((await readers.read(store.repositoryPath('acme/app'), sha))?.type, 'commit');
  });
});
