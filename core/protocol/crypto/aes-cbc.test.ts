import assert from 'node:assert/strict';
import { createDecipheriv } from 'node:crypto';
import { describe, it } from 'node:test';
import { aesCbcDecrypt, aesCbcEncrypt } from './aes-cbc.js';

const hex = (s: string) => Buffer.from(s.replace(/\s/g, ''), 'hex');

// NIST SP 800-38A, appendix F.2 (CBC-AES128.Encrypt F.2.1, CBC-AES256.Encrypt F.2.5): an
// independent known answer for the mode and key sizes. Our cipher pads (PKCS#7), so its output is
// the NIST ciphertext followed by one padding block.
const NIST_IV = hex('000102030405060708090a0b0c0d0e0f');
const NIST_PLAINTEXT = hex(`6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
  30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710`);
const NIST = [
  {
    name: 'AES-128 (F.2.1)',
    key: hex('2b7e151628aed2a6abf7158809cf4f3c'),
    ciphertext: hex(`7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2
      73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7`),
  },
  {
    name: 'AES-256 (F.2.5)',
    key: hex('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4'),
    ciphertext: hex(`f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
      39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b`),
  },
];

describe('AES-CBC with the runner parameters', () => {
  for (const vector of NIST) {
    it(`matches the NIST CBC vector, ${vector.name}`, () => {
      const out = aesCbcEncrypt(NIST_PLAINTEXT, vector.key, NIST_IV);
      assert.equal(out.length, NIST_PLAINTEXT.length + 16, 'a whole block of padding follows a block-aligned plaintext');
      assert.deepEqual(out.subarray(0, 64), vector.ciphertext);
      assert.deepEqual(aesCbcDecrypt(out, vector.key, NIST_IV), NIST_PLAINTEXT);
    });
  }

  it('pads with PKCS#7: a block-aligned plaintext gets sixteen 0x10 bytes', () => {
    const key = hex('603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4');
    const out = aesCbcEncrypt(NIST_PLAINTEXT, key, NIST_IV);
    const raw = createDecipheriv('aes-256-cbc', key, NIST_IV).setAutoPadding(false);
    const plain = Buffer.concat([raw.update(out), raw.final()]);
    assert.deepEqual(plain.subarray(64), Buffer.alloc(16, 0x10));
  });

  it('pads a short tail with N bytes of value N', () => {
    const key = Buffer.alloc(32, 7);
    const out = aesCbcEncrypt(Buffer.from('abc'), key, NIST_IV);
    const raw = createDecipheriv('aes-256-cbc', key, NIST_IV).setAutoPadding(false);
    const plain = Buffer.concat([raw.update(out), raw.final()]);
    assert.deepEqual(plain, Buffer.concat([Buffer.from('abc'), Buffer.alloc(13, 13)]));
  });

  it('takes 192-bit keys too (any size .NET Aes takes)', () => {
    const key = Buffer.alloc(24, 1);
    assert.deepEqual(aesCbcDecrypt(aesCbcEncrypt(Buffer.from('{}'), key, NIST_IV), key, NIST_IV), Buffer.from('{}'));
  });

  it('refuses keys and IVs of other lengths', () => {
    assert.throws(() => aesCbcEncrypt(Buffer.from('x'), Buffer.alloc(31), NIST_IV), { name: 'ProtocolCryptoError', code: 'invalid_key' });
    assert.throws(() => aesCbcEncrypt(Buffer.from('x'), Buffer.alloc(32), Buffer.alloc(8)), { code: 'invalid_iv' });
    assert.throws(() => aesCbcDecrypt(Buffer.alloc(16), Buffer.alloc(32), Buffer.alloc(17)), { code: 'invalid_iv' });
  });

  it('refuses truncated, empty and damaged ciphertext', () => {
    const key = Buffer.alloc(32, 9);
    const out = aesCbcEncrypt(Buffer.alloc(20, 0x41), key, NIST_IV); // 12 bytes of padding 0x0c
    assert.throws(() => aesCbcDecrypt(out.subarray(0, out.length - 1), key, NIST_IV), { code: 'decrypt_failed' });
    assert.throws(() => aesCbcDecrypt(Buffer.alloc(0), key, NIST_IV), { code: 'decrypt_failed' });
    // Flipping the top bit of the first block's last byte flips the last padding byte to 0x8c.
    const damaged = Buffer.from(out);
    damaged[15] = (damaged[15] ?? 0) ^ 0x80;
    assert.throws(() => aesCbcDecrypt(damaged, key, NIST_IV), { code: 'decrypt_failed' });
  });

  it('refuses ciphertext made with another key', () => {
    const out = aesCbcEncrypt(Buffer.from('{"a":1}'), Buffer.alloc(32, 1), NIST_IV);
    assert.throws(() => aesCbcDecrypt(out, Buffer.alloc(32, 2), NIST_IV), { code: 'decrypt_failed' });
  });
});
