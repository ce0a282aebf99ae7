/**
 * Stable codes (part of the API) for key material and message bodies the crypto helpers refuse:
 * - `invalid_base64`: a key, IV or body that is not standard padded base64;
 * - `invalid_key`: an AES key of a length AES refuses (16, 24 or 32 bytes are allowed);
 * - `invalid_iv`: an IV that is not one 16-byte AES block;
 * - `decrypt_failed`: AES-CBC ciphertext that does not decrypt (length not a whole number of
 *   blocks, or bad PKCS#7 padding: wrong key, wrong IV on the last block, tampering, truncation);
 * - `unwrap_failed`: an RSA-OAEP session key that does not decrypt (wrong RSA key, wrong OAEP
 *   hash for the session's `useFipsEncryption`, tampering);
 * - `invalid_rsa_parameters`: a `.credentials_rsaparams` document or public key that does not
 *   describe an RSA key.
 */
export type ProtocolCryptoErrorCode =
  | 'invalid_base64'
  | 'invalid_key'
  | 'invalid_iv'
  | 'decrypt_failed'
  | 'unwrap_failed'
  | 'invalid_rsa_parameters';

/**
 * Raised by core/protocol/crypto. Like WireFormatError it knows no HTTP: the server wraps it in
 * its own error, svc-runner reports it. The underlying node:crypto error, if any, is the `cause`.
 */
export class ProtocolCryptoError extends Error {
  readonly code: ProtocolCryptoErrorCode;

  constructor(code: ProtocolCryptoErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'ProtocolCryptoError';
    this.code = code;
  }
}
