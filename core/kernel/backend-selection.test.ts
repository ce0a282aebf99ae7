import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectBackends } from './backend-selection.js';
import { readEnvConfig } from './config/env-config.js';
import { ConfigError } from './errors.js';
import { parsePluginsFile } from './plugins-file.js';

const POSTGRES = 'postgres://svc@db.local:5432/svc';

function blobsFor(toml: string, env: Record<string, string>) {
  return selectBackends(parsePluginsFile('/etc/svc/plugins.toml', toml), readEnvConfig(env)).blobs;
}

describe('blob backend selection', () => {
  test('auto: the filesystem under the data dir with SQLite, PostgreSQL with the PostgreSQL store', () => {
    assert.deepEqual(blobsFor('', {}), { id: 'filesystem' });
    assert.deepEqual(blobsFor('[backends]\nblobs = "auto"\n', { SVC_DATABASE_URL: 'sqlite:/srv/svc.db' }), { id: 'filesystem' });
    assert.deepEqual(blobsFor('', { SVC_DATABASE_URL: POSTGRES }), { id: 'postgres' });
  });

  test('SVC_BLOB_DIR selects the shared directory, with either store', () => {
    assert.deepEqual(blobsFor('', { SVC_BLOB_DIR: '/mnt/shared/blobs' }), { id: 'filesystem', directory: '/mnt/shared/blobs' });
    assert.deepEqual(blobsFor('', { SVC_BLOB_DIR: '/mnt/shared/blobs', SVC_DATABASE_URL: POSTGRES }), { id: 'filesystem', directory: '/mnt/shared/blobs' });
    assert.deepEqual(blobsFor('[backends]\nblobs = "filesystem"\n', { SVC_BLOB_DIR: '/mnt/b', SVC_DATABASE_URL: POSTGRES }), { id: 'filesystem', directory: '/mnt/b' });
    assert.throws(() => readEnvConfig({ SVC_BLOB_DIR: 'relative/dir' }), (error: unknown) => error instanceof ConfigError && /SVC_BLOB_DIR/.test(error.message));
  });

  test('an explicit choice is kept, and refused where it cannot work', () => {
    assert.deepEqual(blobsFor('[backends]\nblobs = "filesystem"\n', { SVC_DATABASE_URL: POSTGRES }), { id: 'filesystem' });
    assert.deepEqual(blobsFor('[backends]\nblobs = "postgres"\n', { SVC_DATABASE_URL: POSTGRES }), { id: 'postgres' });
    assert.throws(() => blobsFor('[backends]\nblobs = "postgres"\n', {}), (error: unknown) => error instanceof ConfigError && /SVC_DATABASE_URL/.test(error.message));
    assert.throws(
      () => blobsFor('[backends]\nblobs = "postgres"\n', { SVC_DATABASE_URL: POSTGRES, SVC_BLOB_DIR: '/mnt/b' }),
      (error: unknown) => error instanceof ConfigError && /SVC_BLOB_DIR/.test(error.message),
    );
  });
});
