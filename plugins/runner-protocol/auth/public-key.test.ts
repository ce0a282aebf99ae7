import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { publicKeyObject, rsaPublicKeyOf } from './public-key.js';

describe('the runner\'s RSA public key', () => {
  it('round-trips between a key pair and the upload form (exponent AQAB)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const wire = rsaPublicKeyOf(privateKey);
    assert.equal(wire.exponent, 'AQAB');
    assert.equal(Buffer.from(wire.modulus, 'base64').length, 256);
    const object = publicKeyObject(wire);
    assert.ok(typeof object !== 'string');
    assert.ok(object.equals(publicKey));
  });

  it('accepts a modulus with a leading zero byte (a signed big-endian encoding)', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const wire = rsaPublicKeyOf(privateKey);
    const padded = Buffer.concat([Buffer.alloc(1), Buffer.from(wire.modulus, 'base64')]).toString('base64');
    assert.ok(typeof publicKeyObject({ exponent: wire.exponent, modulus: padded }) !== 'string');
  });

  it('refuses short keys and things that are no key', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    assert.match(String(publicKeyObject(rsaPublicKeyOf(privateKey))), /1024 bits; at least 2048/);
    assert.match(String(publicKeyObject({ exponent: 'AQAB', modulus: 'not base64!' })), /base64/);
    assert.match(String(publicKeyObject({ exponent: '', modulus: '' })), /base64/);
    assert.equal(typeof publicKeyObject({ exponent: 'AQAB', modulus: 'AAAA' }), 'string');
  });
});
