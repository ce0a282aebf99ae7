/**
 * A signed JWT (RFC 7519, JWS compact serialization) over node:crypto: RS256 (RSASSA-PKCS1-v1_5)
 * or PS256 (RSASSA-PSS, MGF1 and salt of SHA-256's length, RFC 7518 §3.5), the two algorithms of
 * the runner's client assertion. Not jose: its WebCrypto path costs an idle listener ~10 MB of
 * RSS (npm run bench:runner) for one signature per token request.
 */
import { constants, sign, type KeyObject } from 'node:crypto';

export type JwtAlgorithm = 'RS256' | 'PS256';

const PS256_SALT_BYTES = 32;

const segment = (value: object): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/** `header.payload.signature`; the header as given (its member order is kept), `alg` first checked against the key. */
export function signJwt(header: { readonly alg: JwtAlgorithm } & Readonly<Record<string, unknown>>, claims: object, key: KeyObject): string {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') throw new TypeError(`${header.alg} needs an RSA private key`);
  const modulusLength = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (modulusLength < 2048) throw new TypeError(`${header.alg} needs an RSA key of at least 2048 bits, this one has ${modulusLength}`);
  const input = `${segment(header)}.${segment(claims)}`;
  const signer = header.alg === 'PS256' ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: PS256_SALT_BYTES } : key;
  return `${input}.${sign('sha256', Buffer.from(input, 'utf8'), signer).toString('base64url')}`;
}
