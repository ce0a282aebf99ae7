import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, createSilentLogger } from '../../core/kernel/index.js';
import { filesystemBlobs } from '../../backends/fs-blobs/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { blobSuite } from './blob-suite.js';

const SIGNING_KEY = 'test-signing-key-0123456789abcdef';

blobSuite('filesystem', async (t) => {
  const clock = new ManualClock();
  const blobs = await filesystemBlobs.create({ logger: createSilentLogger(), clock, dataDir: await tempDir(t), signingKey: SIGNING_KEY });
  return { blobs, clock };
});

/** Two nodes' stores on one shared directory (SVC_BLOB_DIR), each with its own (empty) data dir. */
blobSuite('shared directory', async (t) => {
  const clock = new ManualClock();
  const directory = join(await tempDir(t), 'shared');
  const blobs = await filesystemBlobs.create({ logger: createSilentLogger(), clock, dataDir: await tempDir(t), signingKey: SIGNING_KEY, directory });
  return { blobs, clock };
});

test('two nodes on one shared directory: racing puts and deletes in one folder all succeed, whole', async (t) => {
  const clock = new ManualClock();
  const directory = join(await tempDir(t), 'shared');
  const open = async () =>
    (await filesystemBlobs.create({ logger: createSilentLogger(), clock, dataDir: await tempDir(t), signingKey: SIGNING_KEY, directory })).store;
  const [a, b] = [await open(), await open()];
  const payload = (node: string, round: number) => Buffer.alloc(256 * 1024 + round, node.charCodeAt(0));
  for (let round = 0; round < 20; round += 1) {
    // A delete of the folder's only other blob prunes the folder while the puts create files in it.
    await a.put(`logs/run-${round}/other`, Buffer.from('x'));
    const outcomes = await Promise.allSettled([
      a.put(`logs/run-${round}/job.log`, payload('a', round)),
      b.put(`logs/run-${round}/job.log`, payload('b', round)),
      b.delete(`logs/run-${round}/other`),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'fulfilled', 'fulfilled'], `round ${round}`);
    const chunks: Buffer[] = [];
    for await (const chunk of (await b.get(`logs/run-${round}/job.log`)) ?? []) chunks.push(chunk as Buffer);
    const stored = Buffer.concat(chunks);
    assert.ok(stored.equals(payload('a', round)) || stored.equals(payload('b', round)), `round ${round}: one node's whole blob`);
  }
  const listed: string[] = [];
  for await (const info of a.list('logs/')) listed.push(info.key);
  assert.equal(listed.length, 20);
  assert.deepEqual(await readdirNames(directory, 'logs/run-0'), ['job.log'], 'no temp files left behind');
});

test('SVC_BLOB_DIR: blobs go to the shared directory, none under the data dir', async (t) => {
  const dataDir = await tempDir(t);
  const directory = join(await tempDir(t), 'nfs', 'blobs');
  const { store } = await filesystemBlobs.create({ logger: createSilentLogger(), clock: new ManualClock(), dataDir, signingKey: SIGNING_KEY, directory });
  await store.put('a/b', Buffer.from('x'));
  assert.ok(existsSync(join(directory, 'a', 'b')));
  assert.ok(!existsSync(join(dataDir, 'blobs')));
});

async function readdirNames(root: string, relative: string): Promise<string[]> {
  return (await readdir(join(root, ...relative.split('/')))).sort();
}

test('filesystem blobs live under <dataDir>/blobs', async (t) => {
  const dataDir = await tempDir(t);
  const { store } = await filesystemBlobs.create({ logger: createSilentLogger(), clock: new ManualClock(), dataDir, signingKey: SIGNING_KEY });
  await store.put('a/b', Buffer.from('x'));
  assert.ok(existsSync(join(dataDir, 'blobs', 'a', 'b')));
});

test('a short signing key is a configuration error', async (t) => {
  const context = { logger: createSilentLogger(), clock: new ManualClock(), dataDir: await tempDir(t), signingKey: 'short' };
  await assert.rejects(filesystemBlobs.create(context), (error: unknown) => error instanceof ConfigError);
});
