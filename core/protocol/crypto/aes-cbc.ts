import { createCipheriv, createDecipheriv } from 'node:crypto';
import { ProtocolCryptoError } from './protocol-crypto-error.js';

// The cipher of legacy message bodies, fixed by actions/runner
// src/Runner.Listener/MessageListener.cs, DecryptMessage and GetMessageDecryptor: a .NET Aes
// instance left at its defaults (CBC mode, PKCS7 padding, 128-bit blocks) and a decryptor made
// from the session key and the message's IV. The key size is whatever the session key's length is
// (.NET's Aes takes 128-, 192- and 256-bit keys); the IV must be exactly one block (.NET refuses
// any other length). There is no MAC: only the padding check can notice a wrong key or a damaged
// ciphertext, and not always.

/** AES block size in bytes; also the IV length. */
export const AES_BLOCK_BYTES = 16;

/** Key lengths .NET's Aes accepts (bytes). */
export const AES_KEY_LENGTHS: readonly number[] = [16, 24, 32];

/** Refuses a session key .NET's Aes would refuse. */
export function checkAesKey(key: Uint8Array): void {
  if (!AES_KEY_LENGTHS.includes(key.length)) {
    throw new ProtocolCryptoError('invalid_key', `an AES session key must be 16, 24 or 32 bytes long, got ${key.length}`);
  }
}

function cipherName(key: Uint8Array): string {
  checkAesKey(key);
  return `aes-${key.length * 8}-cbc`;
}

function checkIv(iv: Uint8Array): void {
  if (iv.length !== AES_BLOCK_BYTES) {
    throw new ProtocolCryptoError('invalid_iv', `the IV must be ${AES_BLOCK_BYTES} bytes long, got ${iv.length}`);
  }
}

/** AES-CBC with PKCS#7 padding (node's default auto-padding is PKCS#7). */
export function aesCbcEncrypt(plaintext: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer {
  const name = cipherName(key);
  checkIv(iv);
  const cipher = createCipheriv(name, key, iv);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]);
}

/** The inverse of aesCbcEncrypt; refuses partial blocks and bad padding. */
export function aesCbcDecrypt(ciphertext: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer {
  const name = cipherName(key);
  checkIv(iv);
  if (ciphertext.length === 0 || ciphertext.length % AES_BLOCK_BYTES !== 0) {
    throw new ProtocolCryptoError('decrypt_failed', `the ciphertext must be a non-empty multiple of ${AES_BLOCK_BYTES} bytes, got ${ciphertext.length}`);
  }
  const decipher = createDecipheriv(name, key, iv);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (error) {
    throw new ProtocolCryptoError('decrypt_failed', 'the message body does not decrypt with this session key (bad padding)', { cause: error });
  }
}
