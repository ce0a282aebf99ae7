import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { isJsonObject, readMember } from '../wire/index.js';
import { decodeBase64, encodeBase64, fromBase64Url, toBase64UrlUInt } from './base64.js';
import { ProtocolCryptoError } from './protocol-crypto-error.js';

/**
 * The runner's RSA key as stored in `.credentials_rsaparams` (Linux/macOS): .NET RSAParameters,
 * each member base64 of an unsigned big-endian integer. Member names and their order are those of
 * actions/runner src/Runner.Listener/Configuration/IRSAKeyManager.cs, RSAParametersSerializable
 * (GetObjectData); RSAFileKeyManager.CreateKey creates the key with `RSA.Create(2048)` and saves
 * `ExportParameters(true)` through IOUtil.SaveObject (indented JSON, UTF-8 with a BOM).
 */
export interface RsaParameters {
  readonly d: string;
  readonly dp: string;
  readonly dq: string;
  readonly exponent: string;
  readonly inverseQ: string;
  readonly modulus: string;
  readonly p: string;
  readonly q: string;
}

/**
 * TaskAgentPublicKey (src/Sdk/DTWebApi/WebApi/TaskAgentPublicKey.cs): the public half the runner
 * uploads at registration as `authorization.publicKey`, base64 big-endian `exponent` and `modulus`.
 */
export interface TaskAgentPublicKey {
  readonly exponent: string;
  readonly modulus: string;
}

/** The runner's key size (RSAFileKeyManager.CreateKey). */
export const RUNNER_RSA_KEY_BITS = 2048;

const MEMBERS = ['d', 'dp', 'dq', 'exponent', 'inverseQ', 'modulus', 'p', 'q'] as const;

function bigintOf(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

function invalid(message: string, cause?: unknown): ProtocolCryptoError {
  return new ProtocolCryptoError('invalid_rsa_parameters', message, cause === undefined ? undefined : { cause });
}

/** A private KeyObject from the runner's RSA parameters; refuses parameters that are not one key. */
export function rsaParametersToPrivateKey(params: RsaParameters): KeyObject {
  const bytes = Object.fromEntries(MEMBERS.map((m) => [m, decodeBase64(params[m], `RSA parameter ${m}`)])) as Record<(typeof MEMBERS)[number], Buffer>;
  if (bigintOf(bytes.p) * bigintOf(bytes.q) !== bigintOf(bytes.modulus) || bigintOf(bytes.modulus) === 0n) {
    throw invalid('the RSA parameters are inconsistent: modulus is not p × q');
  }
  const jwk: JsonWebKey = {
    kty: 'RSA',
    n: toBase64UrlUInt(bytes.modulus),
    e: toBase64UrlUInt(bytes.exponent),
    d: toBase64UrlUInt(bytes.d),
    p: toBase64UrlUInt(bytes.p),
    q: toBase64UrlUInt(bytes.q),
    dp: toBase64UrlUInt(bytes.dp),
    dq: toBase64UrlUInt(bytes.dq),
    qi: toBase64UrlUInt(bytes.inverseQ),
  };
  try {
    return createPrivateKey({ key: jwk, format: 'jwk' });
  } catch (error) {
    throw invalid('the RSA parameters do not form a private key', error);
  }
}

function rsaJwk(key: KeyObject, wantPrivate: boolean): JsonWebKey {
  if (key.asymmetricKeyType !== 'rsa') throw invalid(`expected an RSA key, got ${key.asymmetricKeyType ?? key.type}`);
  if (wantPrivate && key.type !== 'private') throw invalid('expected a private RSA key');
  const source = !wantPrivate && key.type === 'private' ? createPublicKey(key) : key;
  return source.export({ format: 'jwk' });
}

function required(jwk: JsonWebKey, name: keyof JsonWebKey): string {
  const value = jwk[name];
  if (typeof value !== 'string') throw invalid(`the key has no ${String(name)}`);
  return value;
}

/**
 * The runner's RSA parameters of a private key, padded as .NET's `RSA.ExportParameters(true)`
 * pads them (dotnet/runtime RSAKeyFormatHelper): `modulus` and `exponent` minimal, `d` the
 * modulus' length, `p`, `q`, `dp`, `dq`, `inverseQ` half of it rounded up. The runner's
 * `ImportParameters` refuses other lengths.
 */
export function rsaParametersFromPrivateKey(key: KeyObject): RsaParameters {
  const jwk = rsaJwk(key, true);
  const modulus = fromBase64Url(required(jwk, 'n'));
  const half = Math.ceil(modulus.length / 2);
  return {
    d: encodeBase64(fromBase64Url(required(jwk, 'd'), modulus.length)),
    dp: encodeBase64(fromBase64Url(required(jwk, 'dp'), half)),
    dq: encodeBase64(fromBase64Url(required(jwk, 'dq'), half)),
    exponent: encodeBase64(fromBase64Url(required(jwk, 'e'))),
    inverseQ: encodeBase64(fromBase64Url(required(jwk, 'qi'), half)),
    modulus: encodeBase64(modulus),
    p: encodeBase64(fromBase64Url(required(jwk, 'p'), half)),
    q: encodeBase64(fromBase64Url(required(jwk, 'q'), half)),
  };
}

/** The public key the runner uploads (`exponent` "AQAB" for the usual 65537), from either half. */
export function taskAgentPublicKeyFromKey(key: KeyObject): TaskAgentPublicKey {
  const jwk = rsaJwk(key, false);
  return { exponent: encodeBase64(fromBase64Url(required(jwk, 'e'))), modulus: encodeBase64(fromBase64Url(required(jwk, 'n'))) };
}

/** A public KeyObject from the uploaded `{exponent, modulus}` (as stored at registration). */
export function taskAgentPublicKeyToKeyObject(publicKey: TaskAgentPublicKey): KeyObject {
  const modulus = decodeBase64(publicKey.modulus, 'public key modulus');
  const exponent = decodeBase64(publicKey.exponent, 'public key exponent');
  if (bigintOf(modulus) === 0n || bigintOf(exponent) === 0n) throw invalid('the public key has an empty modulus or exponent');
  try {
    return createPublicKey({ key: { kty: 'RSA', n: toBase64UrlUInt(modulus), e: toBase64UrlUInt(exponent) }, format: 'jwk' });
  } catch (error) {
    throw invalid('the public key is not an RSA key', error);
  }
}

/**
 * Reads `.credentials_rsaparams` text (a leading BOM, as the runner writes it, is allowed). The
 * runner looks members up by their exact names; this reader also accepts other casings.
 */
export function parseRsaParametersFile(text: string): RsaParameters {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw invalid('the RSA parameters file is not JSON', error);
  }
  if (!isJsonObject(parsed)) throw invalid('the RSA parameters file must hold a JSON object');
  const document = parsed;
  const read = (name: (typeof MEMBERS)[number]): string => {
    const value = readMember(document, name.toLowerCase());
    if (typeof value !== 'string' || value === '') throw invalid(`the RSA parameters file has no ${name}`);
    decodeBase64(value, `RSA parameter ${name}`);
    return value;
  };
  return {
    d: read('d'),
    dp: read('dp'),
    dq: read('dq'),
    exponent: read('exponent'),
    inverseQ: read('inverseQ'),
    modulus: read('modulus'),
    p: read('p'),
    q: read('q'),
  };
}

/** `.credentials_rsaparams` text as the runner writes it (indented, members in its order), without the BOM. */
export function formatRsaParametersFile(params: RsaParameters): string {
  return JSON.stringify(Object.fromEntries(MEMBERS.map((m) => [m, params[m]])), null, 2);
}
