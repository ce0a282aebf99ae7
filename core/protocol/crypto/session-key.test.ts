import assert from 'node:assert/strict';
import { constants, createHash, generateKeyPairSync, privateDecrypt, publicEncrypt, type KeyObject } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { decryptMessageBody, encryptMessageBody } from './message-body.js';
import { rsaParametersFromPrivateKey, taskAgentPublicKeyFromKey } from './rsa-parameters.js';
import { SESSION_KEY_BYTES, createSessionKey, plainSessionKey, unwrapSessionKey, wrapSessionKey } from './session-key.js';

const AES_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');

/** MGF1 (RFC 8017 B.2.1) over `hash`. */
function mgf1(hash: string, seed: Buffer, length: number): Buffer {
  let out = Buffer.alloc(0);
  for (let counter = 0; out.length < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    out = Buffer.concat([out, createHash(hash).update(seed).update(c).digest()]);
  }
  return out.subarray(0, length);
}

/**
 * RSAES-OAEP decoding spelled out (RFC 8017 7.1.2) on top of the raw RSA operation, so the test
 * pins what .NET's RSAEncryptionPadding.OaepSHA1/OaepSHA256 mean: OAEP hash = MGF1 hash, empty
 * label. Returns undefined when the encoding does not check out.
 */
function oaepDecode(privateKey: KeyObject, ciphertext: Buffer, hash: 'sha1' | 'sha256'): Buffer | undefined {
  const em = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, ciphertext);
  const hLen = createHash(hash).digest().length;
  const maskedSeed = em.subarray(1, 1 + hLen);
  const maskedDb = em.subarray(1 + hLen);
  const seedMask = mgf1(hash, maskedDb, hLen);
  const seed = Buffer.from(maskedSeed.map((b, i) => b ^ (seedMask[i] ?? 0)));
  const dbMask = mgf1(hash, seed, maskedDb.length);
  const db = Buffer.from(maskedDb.map((b, i) => b ^ (dbMask[i] ?? 0)));
  const emptyLabelHash = createHash(hash).update('').digest();
  if (em[0] !== 0 || !db.subarray(0, hLen).equals(emptyLabelHash)) return undefined;
  const separator = db.indexOf(0x01, hLen);
  if (separator < 0 || db.subarray(hLen, separator).some((b) => b !== 0)) return undefined;
  return db.subarray(separator + 1);
}

describe('session key hand-over', () => {
  let privateKey: KeyObject;
  let publicKey: KeyObject;
  let otherPrivateKey: KeyObject;

  before(() => {
    ({ privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 }));
    otherPrivateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  });

  it('creates 32-byte AES-256 keys from the injected random source', () => {
    assert.equal(SESSION_KEY_BYTES, 32);
    assert.deepEqual(createSessionKey(() => AES_KEY), AES_KEY);
    assert.equal(createSessionKey().length, 32);
    assert.notDeepEqual(createSessionKey(), createSessionKey());
    assert.throws(() => createSessionKey(() => Buffer.alloc(16)), { code: 'invalid_key' });
  });

  for (const [useFipsEncryption, hash] of [[true, 'sha256'], [false, 'sha1']] as const) {
    it(`wraps with RSA-OAEP-${hash.toUpperCase()} (MGF1-${hash.toUpperCase()}, empty label) when useFipsEncryption is ${useFipsEncryption}`, () => {
      const wrapped = wrapSessionKey(AES_KEY, taskAgentPublicKeyFromKey(publicKey), { useFipsEncryption });
      assert.equal(wrapped.encrypted, true);
      const ciphertext = Buffer.from(wrapped.value ?? '', 'base64');
      assert.equal(ciphertext.length, 256, 'one RSA block of the 2048-bit key');
      assert.deepEqual(privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, ciphertext), AES_KEY);
      assert.deepEqual(oaepDecode(privateKey, ciphertext, hash), AES_KEY);
      const otherHash = hash === 'sha1' ? 'sha256' : 'sha1';
      assert.equal(oaepDecode(privateKey, ciphertext, otherHash), undefined, 'the other hash does not decode it');
      assert.throws(() => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, ciphertext), 'not PKCS#1 v1.5');
    });

    it(`unwraps a key wrapped independently with OAEP-${hash.toUpperCase()}`, () => {
      const value = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, AES_KEY).toString('base64');
      assert.deepEqual(unwrapSessionKey({ encrypted: true, value }, privateKey, { useFipsEncryption }), AES_KEY);
      assert.deepEqual(unwrapSessionKey({ encrypted: true, value }, rsaParametersFromPrivateKey(privateKey), { useFipsEncryption }), AES_KEY);
      assert.throws(() => unwrapSessionKey({ encrypted: true, value }, privateKey, { useFipsEncryption: !useFipsEncryption }), { name: 'ProtocolCryptoError', code: 'unwrap_failed' });
    });
  }

  it('wraps with a KeyObject as well as with the uploaded {exponent, modulus}', () => {
    const wrapped = wrapSessionKey(AES_KEY, publicKey, { useFipsEncryption: true });
    assert.deepEqual(unwrapSessionKey(wrapped, privateKey, { useFipsEncryption: true }), AES_KEY);
  });

  it('refuses a tampered wrap and a wrap for another runner', () => {
    const wrapped = wrapSessionKey(AES_KEY, publicKey, { useFipsEncryption: true });
    const bytes = Buffer.from(wrapped.value ?? '', 'base64');
    bytes[100] = (bytes[100] ?? 0) ^ 1;
    assert.throws(() => unwrapSessionKey({ encrypted: true, value: bytes.toString('base64') }, privateKey, { useFipsEncryption: true }), { code: 'unwrap_failed' });
    assert.throws(() => unwrapSessionKey(wrapped, otherPrivateKey, { useFipsEncryption: true }), { code: 'unwrap_failed' });
  });

  it('reads encrypted:false (or absent) as the raw key, and no key as plain messages', () => {
    assert.deepEqual(plainSessionKey(AES_KEY), { encrypted: false, value: AES_KEY.toString('base64') });
    assert.deepEqual(unwrapSessionKey(plainSessionKey(AES_KEY), privateKey, { useFipsEncryption: true }), AES_KEY);
    assert.deepEqual(unwrapSessionKey({ value: AES_KEY.toString('base64') }, privateKey, { useFipsEncryption: false }), AES_KEY);
    assert.equal(unwrapSessionKey(undefined, privateKey, { useFipsEncryption: true }), undefined);
    assert.equal(unwrapSessionKey(null, privateKey, { useFipsEncryption: true }), undefined);
    assert.equal(unwrapSessionKey({ encrypted: true }, privateKey, { useFipsEncryption: true }), undefined);
    assert.equal(unwrapSessionKey({ encrypted: true, value: '' }, privateKey, { useFipsEncryption: true }), undefined);
  });

  it('refuses a registered public key that cannot carry the session key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    assert.throws(() => wrapSessionKey(AES_KEY, ec, { useFipsEncryption: true }), { code: 'invalid_rsa_parameters' });
    const tiny = generateKeyPairSync('rsa', { modulusLength: 512 }).publicKey;
    assert.throws(() => wrapSessionKey(AES_KEY, tiny, { useFipsEncryption: true }), { code: 'invalid_rsa_parameters' });
  });

  it('refuses keys AES cannot use, before sending them', () => {
    assert.throws(() => wrapSessionKey(Buffer.alloc(20), publicKey, { useFipsEncryption: true }), { code: 'invalid_key' });
    assert.throws(() => plainSessionKey(Buffer.alloc(0)), { code: 'invalid_key' });
    assert.throws(() => unwrapSessionKey({ value: Buffer.alloc(20).toString('base64') }, privateKey, { useFipsEncryption: true }), { code: 'invalid_key' });
  });

  it('carries a job message from server to runner end to end', () => {
    const sessionKey = createSessionKey();
    const encryptionKey = wrapSessionKey(sessionKey, taskAgentPublicKeyFromKey(publicKey), { useFipsEncryption: false });
    const json = '{"messageType":"PipelineAgentJobRequest","plan":{"version":12}}';
    const message = { messageId: 1, messageType: 'PipelineAgentJobRequest', ...encryptMessageBody(json, sessionKey) };
    const runnerKey = unwrapSessionKey(encryptionKey, rsaParametersFromPrivateKey(privateKey), { useFipsEncryption: false });
    assert.equal(decryptMessageBody(message, runnerKey), json);
  });
});
