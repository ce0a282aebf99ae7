/**
 * An App's private key and the JWTs it signs. GitHub hands out PKCS#1 PEM (`BEGIN RSA PRIVATE
 * KEY`); converted or re-exported keys are often PKCS#8 (`BEGIN PRIVATE KEY`): node reads both.
 * App JWTs are RS256 with `iat` 60 s in the past (clock drift between svc and the forge) and
 * `exp` 10 minutes after `iat`, the most GitHub accepts.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export const JWT_BACKDATE_S = 60;
export const JWT_LIFETIME_S = 600;

/** The key, or why it is not one an App can sign with (never quoting the key). */
export function parseAppKey(pem: string): { readonly key: KeyObject } | { readonly problem: string } {
  // Keys pasted through an environment variable or a one-line field often carry `\n` literally.
  const text = pem.includes('-----BEGIN') && !pem.includes('\n') ? pem.replace(/\\n/g, '\n') : pem;
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text)) {
    return { problem: 'it is not a PEM private key (GitHub\'s .pem file starts with "-----BEGIN RSA PRIVATE KEY-----"; PKCS#8 "-----BEGIN PRIVATE KEY-----" works too)' };
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    return { problem: `the PEM does not parse (${reason}); it may be cut, or encrypted with a passphrase` };
  }
  if (key.asymmetricKeyType !== 'rsa') return { problem: `it is an ${String(key.asymmetricKeyType)} key; GitHub App keys are RSA` };
  return { key };
}

/** An App JWT signed now (`nowMs`), and when it stops being valid (epoch ms). */
export function signAppJwt(appId: number, key: KeyObject, nowMs: number): { readonly jwt: string; readonly expiresAt: number } {
  const iat = Math.floor(nowMs / 1000) - JWT_BACKDATE_S;
  const exp = iat + JWT_LIFETIME_S;
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat, exp, iss: String(appId) })}`;
  const signature = sign('RSA-SHA256', Buffer.from(unsigned), key).toString('base64url');
  return { jwt: `${unsigned}.${signature}`, expiresAt: exp * 1000 };
}
