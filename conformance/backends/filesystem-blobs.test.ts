import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
