import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../errors.js';
import { hostNodeId, readNodeId } from './node-id.js';

describe('SVC_NODE_ID', () => {
  it('is taken as given when valid', () => {
    assert.deepEqual(readNodeId('ci-node-2', 'host'), { id: 'ci-node-2', source: 'SVC_NODE_ID' });
    assert.deepEqual(readNodeId(' eu.1_a ', 'host'), { id: 'eu.1_a', source: 'SVC_NODE_ID' });
  });

  it('refuses what is not a node id, saying what is allowed', () => {
    for (const bad of ['Node-A', '-a', 'a b', 'a/b', 'x'.repeat(64), '../a']) {
      assert.throws(() => readNodeId(bad, 'host'), (error: ConfigError) => error instanceof ConfigError && /SVC_NODE_ID='.*' is not a node id; use 1-63 lower-case letters/.test(error.message), bad);
    }
  });

  it('defaults to the host name made into an id', () => {
    assert.deepEqual(readNodeId(undefined, 'CI-Host.example.com'), { id: 'ci-host.example.com', source: 'hostname' });
    assert.deepEqual(readNodeId('', 'build box #3'), { id: 'build-box-3', source: 'hostname' });
    assert.equal(hostNodeId(''), 'node');
    assert.equal(hostNodeId('___'), 'node');
    assert.equal(hostNodeId('a'.repeat(80)).length, 63);
  });
});
