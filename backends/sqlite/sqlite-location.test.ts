import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../core/kernel/index.js';
import { resolveSqliteLocation } from './sqlite-location.js';

test('SQLite locations resolve against the data directory', () => {
  assert.equal(resolveSqliteLocation(undefined, '/data'), '/data/svc.db');
  assert.equal(resolveSqliteLocation('sqlite::memory:', '/data'), ':memory:');
  assert.equal(resolveSqliteLocation('sqlite:///var/lib/svc/x.db', '/data'), '/var/lib/svc/x.db');
  assert.equal(resolveSqliteLocation('sqlite:db/x.db', '/data'), '/data/db/x.db');
  assert.equal(resolveSqliteLocation('sqlite:/abs.db', '/data'), '/abs.db');
});

test('other URLs are configuration errors', () => {
  for (const url of ['postgres://h/db', 'sqlite:', 'sqlite://host/x.db']) {
    assert.throws(() => resolveSqliteLocation(url, '/data'), ConfigError, url);
  }
});
