import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { signJwt } from './jwt-sign.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = createPublicKey(privateKey);
const claims = { sub: 'client', jti: 'a0c1', iss: 'client', aud: 'http://svc.test/_apis/oauth2/token', nbf: 1_790_000_000, exp: 1_790_000_300 };

describe('signJwt', () => {
  for (const alg of ['RS256', 'PS256'] as const) {
    it(`signs ${alg} so that a JOSE library verifies it, header and claims in the order given`, async () => {
      const jwt = signJwt({ typ: 'JWT', alg }, claims, privateKey);
      const [header, payload] = jwt.split('.');
      assert.equal(Buffer.from(header ?? '', 'base64url').toString('utf8'), `{"typ":"JWT","alg":"${alg}"}`);
      assert.equal(Buffer.from(payload ?? '', 'base64url').toString('utf8'), JSON.stringify(claims));
      const verified = await compactVerify(jwt, publicKey, { algorithms: [alg] });
      assert.deepEqual(JSON.parse(Buffer.from(verified.payload).toString('utf8')), claims);
      assert.equal(decodeProtectedHeader(jwt).alg, alg);
    });
  }

  it('refuses a key that cannot sign RS256', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    assert.throws(() => signJwt({ alg: 'RS256' }, claims, small), /at least 2048 bits, this one has 1024/);
    assert.throws(() => signJwt({ alg: 'RS256' }, claims, publicKey), /needs an RSA private key/);
  });
});
