import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../core/kernel/index.js';
import { parsePostgresUrl } from './connection-url.js';

test('?schema= becomes a search_path option and is reported', () => {
  const location = parsePostgresUrl('postgres://svc:secret@db.local:5432/svc?schema=tenant_1&sslmode=disable');
  assert.equal(location.schema, 'tenant_1');
  const url = new URL(location.connectionString);
  assert.equal(url.searchParams.get('schema'), null);
  assert.equal(url.searchParams.get('options'), '-c search_path=tenant_1');
  assert.equal(url.searchParams.get('sslmode'), 'disable');
  assert.equal(location.display, 'postgres://svc@db.local:5432/svc', 'no password or query in logs');
});

test('a search_path in ?options= names the schema too, and is kept as given', () => {
  const raw = `postgresql://u@h/db?options=${encodeURIComponent('-c statement_timeout=5000 -c search_path=app,public')}`;
  const location = parsePostgresUrl(raw);
  assert.equal(location.schema, 'app');
  assert.equal(new URL(location.connectionString).searchParams.get('options'), '-c statement_timeout=5000 -c search_path=app,public');
  assert.equal(parsePostgresUrl('postgres://u@h/db').schema, undefined);
});

test('bad URLs are configuration errors', () => {
  for (const url of [undefined, '', 'not a url', 'mysql://h/db', 'postgres://h/db?schema=bad-name', 'postgres://h/db?schema=a&options=-c%20search_path%3Db']) {
    assert.throws(() => parsePostgresUrl(url), ConfigError, String(url));
  }
});
