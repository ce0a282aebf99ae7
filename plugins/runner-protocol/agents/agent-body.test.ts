import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSvcError } from '../../../core/kernel/index.js';
import { parseAgentBody } from './agent-body.js';

const key = { exponent: 'AQAB', modulus: 'AAAA' };

function rejects(body: unknown, pattern: RegExp): void {
  assert.throws(
    () => parseAgentBody(body),
    (error: unknown) => isSvcError(error) && error.status === 400 && pattern.test(error.message),
  );
}

describe('parseAgentBody (TaskAgent from the runner)', () => {
  it('reads the runner\'s camelCase body, label types as names or numbers, and drops repeated labels', () => {
    const body = parseAgentBody({
      id: 0,
      name: 'build-01',
      version: '2.337.0',
      osDescription: 'Ubuntu 24.04.1 LTS',
      ephemeral: true,
      disableUpdate: false,
      maxParallelism: 1,
      authorization: { publicKey: key },
      labels: [
        { id: 0, name: 'self-hosted', type: 'system' },
        { id: 0, name: 'Linux', type: 0 },
        { id: 0, name: 'gpu', type: 'User' },
        { id: 0, name: 'GPU', type: 1 },
        { id: 0, name: 'big' },
      ],
    });
    assert.deepEqual(body, {
      name: 'build-01',
      version: '2.337.0',
      osDescription: 'Ubuntu 24.04.1 LTS',
      ephemeral: true,
      disableUpdate: false,
      publicKey: key,
      labels: [
        { name: 'self-hosted', type: 'system' },
        { name: 'Linux', type: 'system' },
        { name: 'gpu', type: 'user' },
        { name: 'big', type: 'user' },
      ],
    });
  });

  it('reads property names in any casing, as the runner does', () => {
    const body = parseAgentBody({ Name: 'r', Authorization: { PublicKey: { Exponent: 'AQAB', Modulus: 'AAAA' } }, Labels: [{ Name: 'x', Type: 'SYSTEM' }] });
    assert.equal(body.name, 'r');
    assert.deepEqual(body.publicKey, key);
    assert.deepEqual(body.labels, [{ name: 'x', type: 'system' }]);
    assert.equal(body.version, '');
  });

  it('refuses what would make an unusable registration, saying what is wrong', () => {
    rejects([], /TaskAgent object/);
    rejects({ authorization: { publicKey: key } }, /needs a name/);
    rejects({ name: '  ', authorization: { publicKey: key } }, /needs a name/);
    rejects({ name: 'a\nb', authorization: { publicKey: key } }, /control characters/);
    rejects({ name: 'x'.repeat(256), authorization: { publicKey: key } }, /longer than 255/);
    rejects({ name: 'r' }, /publicKey is missing/);
    rejects({ name: 'r', authorization: { publicKey: { exponent: 1, modulus: 'AA' } } }, /base64 "exponent" and "modulus"/);
    rejects({ name: 'r', authorization: { publicKey: key }, labels: 'gpu' }, /labels must be a list/);
    rejects({ name: 'r', authorization: { publicKey: key }, labels: [{ name: 'gpu', type: 'admin' }] }, /label type/);
    rejects({ name: 'r', authorization: { publicKey: key }, ephemeral: 'yes' }, /ephemeral must be true or false/);
  });
});
