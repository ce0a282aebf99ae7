import { ProtocolCryptoError } from './protocol-crypto-error.js';

// The runner reads byte[] members (`iv`, `encryptionKey.value`, RSA parameters) and the message
// body with .NET's Convert.FromBase64String semantics: standard alphabet, padding required, white
// space ignored. Buffer.from(x, 'base64') silently skips any character it does not know, so a
// corrupted value would decode to different bytes instead of failing; check the text first.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 with padding, as the runner writes byte arrays. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Decodes standard padded base64 (white space allowed); `what` names the value in the error. */
export function decodeBase64(value: string, what: string): Buffer {
  const compact = value.replace(/[\t\n\r ]/g, '');
  if (!BASE64.test(compact)) {
    throw new ProtocolCryptoError('invalid_base64', `${what} is not valid base64`);
  }
  return Buffer.from(compact, 'base64');
}

/** base64url without padding (JWK members) from bytes, leading zero bytes removed. */
export function toBase64UrlUInt(bytes: Uint8Array): string {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return Buffer.from(bytes.subarray(start)).toString('base64url');
}

/** Big-endian bytes of a JWK member, left-padded with zeros to `length` when it is given. */
export function fromBase64Url(value: string, length?: number): Buffer {
  const raw = Buffer.from(value, 'base64url');
  if (length === undefined || raw.length >= length) return raw;
  return Buffer.concat([Buffer.alloc(length - raw.length), raw]);
}
