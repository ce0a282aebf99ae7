import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../core/kernel/index.js';
import { parseRedisUrl } from './redis-url.js';

test('the prefix comes from ?prefix= or defaults to svc:', () => {
  const custom = parseRedisUrl('redis://:pw@cache:6380/2?prefix=tenant-a:');
  assert.equal(custom.prefix, 'tenant-a:');
  assert.equal(new URL(custom.connectionUrl).searchParams.get('prefix'), null);
  assert.equal(custom.display, 'redis://cache:6380/2');
  assert.equal(parseRedisUrl('rediss://cache').prefix, 'svc:');
});

test('bad URLs are configuration errors', () => {
  for (const url of [undefined, '', 'cache:6379', 'http://cache', 'redis://cache?prefix=has%20space']) {
    assert.throws(() => parseRedisUrl(url), ConfigError, String(url));
  }
});
