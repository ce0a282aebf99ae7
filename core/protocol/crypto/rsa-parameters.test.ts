import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { fromBase64Url, toBase64UrlUInt } from './base64.js';
import {
  formatRsaParametersFile,
  parseRsaParametersFile,
  rsaParametersFromPrivateKey,
  rsaParametersToPrivateKey,
  taskAgentPublicKeyFromKey,
  taskAgentPublicKeyToKeyObject,
  type RsaParameters,
} from './rsa-parameters.js';

const bytesOf = (b64: string) => Buffer.from(b64, 'base64');
const spki = (key: KeyObject) => (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });

describe('the runner RSA key (.credentials_rsaparams)', () => {
  let privateKey: KeyObject;
  let publicKey: KeyObject;
  let params: RsaParameters;

  before(() => {
    ({ privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 }));
    params = rsaParametersFromPrivateKey(privateKey);
  });

  it('writes the members with the lengths .NET ExportParameters gives them', () => {
    assert.equal(params.exponent, 'AQAB');
    assert.equal(bytesOf(params.modulus).length, 256);
    assert.equal(bytesOf(params.d).length, 256);
    for (const half of [params.p, params.q, params.dp, params.dq, params.inverseQ]) assert.equal(bytesOf(half).length, 128);
  });

  it('round-trips to the same key', () => {
    const back = rsaParametersToPrivateKey(params);
    assert.deepEqual(back.export({ format: 'jwk' }), privateKey.export({ format: 'jwk' }));
    assert.deepEqual(rsaParametersFromPrivateKey(back), params);
  });

  it('pads short components and strips leading zeros (JWK members are minimal)', () => {
    assert.deepEqual(fromBase64Url(Buffer.from([1, 2]).toString('base64url'), 4), Buffer.from([0, 0, 1, 2]));
    assert.equal(toBase64UrlUInt(Buffer.from([0, 0, 1, 2])), Buffer.from([1, 2]).toString('base64url'));
    const padded = Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, Buffer.concat([Buffer.alloc(1), bytesOf(v)]).toString('base64')]),
    ) as unknown as RsaParameters;
    assert.deepEqual(spki(rsaParametersToPrivateKey(padded)), spki(publicKey));
  });

  it('writes the file as the runner does: indented JSON, members in its order', () => {
    const text = formatRsaParametersFile(params);
    assert.deepEqual(Object.keys(JSON.parse(text)), ['d', 'dp', 'dq', 'exponent', 'inverseQ', 'modulus', 'p', 'q']);
    assert.match(text, /^\{\n {2}"d": "/);
    assert.deepEqual(parseRsaParametersFile(text), params);
  });

  it('reads a file with the BOM the runner writes, and other member casings', () => {
    assert.deepEqual(parseRsaParametersFile(`\uFEFF${formatRsaParametersFile(params)}`), params);
    const pascal = JSON.stringify({ D: params.d, DP: params.dp, DQ: params.dq, Exponent: params.exponent, InverseQ: params.inverseQ, Modulus: params.modulus, P: params.p, Q: params.q });
    assert.deepEqual(parseRsaParametersFile(pascal), params);
  });

  it('refuses files that are not one RSA key', () => {
    assert.throws(() => parseRsaParametersFile('not json'), { name: 'ProtocolCryptoError', code: 'invalid_rsa_parameters' });
    assert.throws(() => parseRsaParametersFile('[]'), { code: 'invalid_rsa_parameters' });
    const { q: _q, ...missing } = params;
    assert.throws(() => parseRsaParametersFile(JSON.stringify(missing)), { code: 'invalid_rsa_parameters' });
    assert.throws(() => parseRsaParametersFile(JSON.stringify({ ...params, d: 'not base64!' })), { code: 'invalid_base64' });
    const other = rsaParametersFromPrivateKey(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey);
    assert.throws(() => rsaParametersToPrivateKey({ ...params, p: other.p }), { code: 'invalid_rsa_parameters' });
  });

  it('derives the uploaded public key {exponent, modulus} from either half', () => {
    const fromPrivate = taskAgentPublicKeyFromKey(privateKey);
    assert.deepEqual(fromPrivate, taskAgentPublicKeyFromKey(publicKey));
    assert.deepEqual(fromPrivate, { exponent: params.exponent, modulus: params.modulus });
    assert.deepEqual(spki(taskAgentPublicKeyToKeyObject(fromPrivate)), spki(publicKey));
  });

  it('refuses a public key that is not RSA material', () => {
    assert.throws(() => taskAgentPublicKeyToKeyObject({ exponent: 'AQAB', modulus: '' }), { code: 'invalid_rsa_parameters' });
    assert.throws(() => taskAgentPublicKeyToKeyObject({ exponent: 'AQAB', modulus: '@@' }), { code: 'invalid_base64' });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    assert.throws(() => taskAgentPublicKeyFromKey(ec), { code: 'invalid_rsa_parameters' });
    assert.throws(() => rsaParametersFromPrivateKey(publicKey), { code: 'invalid_rsa_parameters' });
  });
});
