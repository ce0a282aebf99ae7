import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { describe, it } from 'node:test';
import { decryptMessageBody, encryptMessageBody, isEncryptedMessage } from './message-body.js';

const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i)); // 00 01 … 1f
const IV = Buffer.from(Array.from({ length: 16 }, (_, i) => 0xa0 + i)); // a0 a1 … af
const JSON_BODY = '{"jobId":"6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21","timeout":"00:05:00"}';
// Computed outside node with `openssl enc -aes-256-cbc -K 0001…1f -iv a0a1…af | base64`.
const GOLDEN = 'Sm8uUdkQDfMz0zXw3wRSje10Q7lck4aubPj9cBMVvX0p3b7yGPOIFON+DVccpeIPS7Rd8mXcZQEFL3BbQW/haeockPDxEyn6IiTE3AcG9SI=';

/** The runner's parameters spelled out independently: AES-256-CBC, PKCS#7, over UTF-8 bytes. */
function referenceCiphertext(plaintext: Uint8Array, key: Uint8Array, iv: Uint8Array): string {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]).toString('base64');
}

describe('legacy message body encryption', () => {
  it('encrypts to the exact ciphertext of AES-256-CBC/PKCS#7 over the UTF-8 JSON', () => {
    const sealed = encryptMessageBody(JSON_BODY, KEY, IV);
    assert.equal(sealed.iv, IV.toString('base64'));
    assert.equal(sealed.iv, 'oKGio6SlpqeoqaqrrK2urw==');
    assert.equal(sealed.body, referenceCiphertext(Buffer.from(JSON_BODY, 'utf8'), KEY, IV));
    assert.equal(sealed.body, GOLDEN);
  });

  it('encodes non-ASCII text as UTF-8 before encrypting', () => {
    const json = '{"reason":"café ☕ 𝄞"}';
    assert.equal(encryptMessageBody(json, KEY, IV).body, referenceCiphertext(Buffer.from(json, 'utf8'), KEY, IV));
    assert.equal(decryptMessageBody(encryptMessageBody(json, KEY, IV), KEY), json);
  });

  it('uses a fresh IV per message by default', () => {
    const a = encryptMessageBody(JSON_BODY, KEY);
    const b = encryptMessageBody(JSON_BODY, KEY);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.body, b.body);
    assert.equal(Buffer.from(a.iv, 'base64').length, 16);
    assert.equal(decryptMessageBody(a, KEY), JSON_BODY);
  });

  it('round-trips a body whose length is a multiple of the block size', () => {
    const json = '{"a":"0123456789abcdefghij0123"}';
    assert.equal(Buffer.byteLength(json) % 16, 0);
    assert.equal(decryptMessageBody(encryptMessageBody(json, KEY, IV), KEY), json);
  });

  it('decrypts the golden vector', () => {
    assert.equal(decryptMessageBody({ body: GOLDEN, iv: 'oKGio6SlpqeoqaqrrK2urw==' }, KEY), JSON_BODY);
  });

  it('drops a UTF-8 byte order mark, as the runner\'s StreamReader does', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON_BODY, 'utf8')]);
    const body = referenceCiphertext(withBom, KEY, IV);
    assert.equal(decryptMessageBody({ body, iv: IV.toString('base64') }, KEY), JSON_BODY);
  });

  it('follows a UTF-16 byte order mark, as the runner\'s StreamReader does', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON_BODY, 'utf16le')]);
    assert.equal(decryptMessageBody({ body: referenceCiphertext(le, KEY, IV), iv: IV.toString('base64') }, KEY), JSON_BODY);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(JSON_BODY, 'utf16le').swap16()]);
    assert.equal(decryptMessageBody({ body: referenceCiphertext(be, KEY, IV), iv: IV.toString('base64') }, KEY), JSON_BODY);
  });

  it('takes the body verbatim when the message has no IV or the session no key', () => {
    assert.equal(decryptMessageBody({ body: JSON_BODY }, KEY), JSON_BODY);
    assert.equal(decryptMessageBody({ body: JSON_BODY, iv: null }, KEY), JSON_BODY);
    assert.equal(decryptMessageBody({ body: JSON_BODY, iv: '' }, KEY), JSON_BODY);
    assert.equal(decryptMessageBody({ body: GOLDEN, iv: 'oKGio6SlpqeoqaqrrK2urw==' }, undefined), GOLDEN);
    assert.equal(decryptMessageBody({ body: GOLDEN, iv: 'oKGio6SlpqeoqaqrrK2urw==' }, Buffer.alloc(0)), GOLDEN);
    assert.equal(decryptMessageBody({ body: null }, KEY), '');
    assert.equal(isEncryptedMessage({ body: GOLDEN, iv: 'oKGio6SlpqeoqaqrrK2urw==' }, KEY), true);
    assert.equal(isEncryptedMessage({ body: GOLDEN }, KEY), false);
  });

  it('refuses a tampered or truncated body and malformed base64', () => {
    const sealed = encryptMessageBody(JSON_BODY, KEY, IV);
    const bytes = Buffer.from(sealed.body, 'base64');
    // The last plaintext block holds 11 bytes of padding 0x0b; flipping the top bit of the
    // previous ciphertext block's last byte turns the last padding byte into 0x8b.
    bytes[bytes.length - 17] = (bytes[bytes.length - 17] ?? 0) ^ 0x80;
    assert.throws(() => decryptMessageBody({ body: bytes.toString('base64'), iv: sealed.iv }, KEY), { name: 'ProtocolCryptoError', code: 'decrypt_failed' });
    // Cut at a block boundary: the new last block ends in a JSON character, not valid padding.
    const truncated = Buffer.from(sealed.body, 'base64').subarray(0, 64).toString('base64');
    assert.throws(() => decryptMessageBody({ body: truncated, iv: sealed.iv }, KEY), { code: 'decrypt_failed' });
    assert.throws(() => decryptMessageBody({ body: sealed.body.slice(0, -4), iv: sealed.iv }, KEY), { code: 'decrypt_failed' });
    assert.throws(() => decryptMessageBody({ body: `${sealed.body}!`, iv: sealed.iv }, KEY), { code: 'invalid_base64' });
    assert.throws(() => decryptMessageBody({ body: sealed.body, iv: 'AAAA' }, KEY), { code: 'invalid_iv' });
  });

  it('refuses a body encrypted with another session key', () => {
    const sealed = encryptMessageBody(JSON_BODY, Buffer.alloc(32, 0x55), IV);
    assert.throws(() => decryptMessageBody(sealed, KEY), { code: 'decrypt_failed' });
  });
});
