import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateClusterKey, openValue, parseClusterKey, sealValue } from './cluster-key.js';

test('a sealed value opens under its own name and key only', () => {
  const key = generateClusterKey();
  const sealed = sealValue(key, 'system-token', 'svc_secret');
  assert.ok(!sealed.includes('svc_secret') && sealed.startsWith('v1.'));
  assert.notEqual(sealValue(key, 'system-token', 'svc_secret'), sealed, 'randomised: equal values do not look equal at rest');
  assert.equal(openValue(key, 'system-token', sealed), 'svc_secret');
  assert.throws(() => openValue(key, 'blob-signing-key', sealed), { code: 'shared_key_damaged' });
  assert.throws(() => openValue(generateClusterKey(), 'system-token', sealed), /does not open with cluster key/);
  const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
  assert.throws(() => openValue(key, 'system-token', flipped), { code: 'shared_key_damaged' });
});

test('the text form round-trips; the id and verifier are stable and reveal nothing of the key', () => {
  const key = generateClusterKey();
  const again = parseClusterKey(`  ${key.text}\n`, 'the input');
  assert.equal(again.verifier, key.verifier);
  assert.equal(again.id, key.id);
  assert.equal(openValue(again, 'n', sealValue(key, 'n', 'v')), 'v');
  assert.ok(!key.text.includes(key.verifier));
  assert.notEqual(generateClusterKey().verifier, key.verifier);
  for (const bad of ['', 'svc-cluster-key-v1:', 'svc-cluster-key-v1:abc', `other:${key.text.split(':')[1]}`, `${key.text}=`]) {
    assert.throws(() => parseClusterKey(bad, 'SVC_CLUSTER_KEY_FILE (/k)'), (error: Error & { code?: string }) => error.code === 'cluster_key_invalid' && error.message.startsWith('SVC_CLUSTER_KEY_FILE (/k) does not hold'));
  }
});
