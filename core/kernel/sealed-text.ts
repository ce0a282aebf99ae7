import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Bytes of a sealing key (AES-256). */
export const SEALING_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Text sealed at rest: AES-256-GCM under `key` with `associatedData` bound in (a sealed value
 * moved to another name or scope does not open), as `<format>` + base64url(iv, ciphertext, tag).
 * `format` (e.g. `v1.`) tells the kind and version of a sealed value apart.
 */
export function sealText(key: Buffer, associatedData: Buffer, value: string, format: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${format}${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** What `sealText` sealed with the same key, associated data and format; undefined when it does not open. */
export function openText(key: Buffer, associatedData: Buffer, sealed: string, format: string): string | undefined {
  const raw = sealed.startsWith(format) ? Buffer.from(sealed.slice(format.length), 'base64url') : Buffer.alloc(0);
  if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(associatedData);
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A key's text form: `prefix` + its bytes in base64url. */
export function keyText(prefix: string, bytes: Buffer): string {
  return `${prefix}${bytes.toString('base64url')}`;
}

/** The bytes of a key's text form (surrounding whitespace ignored); undefined unless it is exactly `prefix` + a 32-byte key. */
export function keyBytes(prefix: string, text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith(prefix)) return undefined;
  const body = trimmed.slice(prefix.length);
  const bytes = Buffer.from(body, 'base64url');
  return bytes.length === SEALING_KEY_BYTES && bytes.toString('base64url') === body ? bytes : undefined;
}
