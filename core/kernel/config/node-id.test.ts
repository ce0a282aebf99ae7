import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../errors.js';
import { defaultNodeId, readNodeId } from './node-id.js';

describe('SVC_NODE_ID', () => {
  it('is taken as given when valid', () => {
    assert.deepEqual(readNodeId('ci-node-2', '/srv/svc', 'host'), { id: 'ci-node-2', source: 'SVC_NODE_ID' });
    assert.deepEqual(readNodeId(' eu.1_a ', '/srv/svc', 'host'), { id: 'eu.1_a', source: 'SVC_NODE_ID' });
  });

  it('refuses what is not a node id, saying what is allowed', () => {
    for (const bad of ['Node-A', '-a', 'a b', 'a/b', 'x'.repeat(64), '../a']) {
      assert.throws(() => readNodeId(bad, '/srv/svc', 'host'), (error: ConfigError) => error instanceof ConfigError && /SVC_NODE_ID='.*' is not a node id; use 1-63 lower-case letters/.test(error.message), bad);
    }
  });

  it('defaults to the host name made into an id and a hash of the data directory: stable, and different for another data directory', () => {
    const id = readNodeId(undefined, '/srv/svc', 'CI-Host.example.com');
    assert.equal(id.source, 'default');
    assert.match(id.id, /^ci-host\.example\.com-[0-9a-f]{6}$/);
    assert.equal(readNodeId('', '/srv/svc', 'CI-Host.example.com').id, id.id);
    assert.notEqual(readNodeId(undefined, '/srv/svc-2', 'CI-Host.example.com').id, id.id);
    assert.match(defaultNodeId('build box #3', '/d'), /^build-box-3-[0-9a-f]{6}$/);
    assert.match(defaultNodeId('', '/d'), /^node-[0-9a-f]{6}$/);
    assert.match(defaultNodeId('___', '/d'), /^node-[0-9a-f]{6}$/);
    assert.ok(defaultNodeId('a'.repeat(80), '/d').length <= 63);
    assert.match(defaultNodeId(`${'a'.repeat(55)}--x`, '/d'), /^a{55}-[0-9a-f]{6}$/, 'no separator runs into the hash');
  });
});
