import { randomBytes } from 'node:crypto';
import { AES_BLOCK_BYTES, aesCbcDecrypt, aesCbcEncrypt } from './aes-cbc.js';
import { decodeBase64, encodeBase64 } from './base64.js';
import { decodeRunnerText } from './runner-text.js';

// Legacy message bodies (`GET messages`): the server encrypts the UTF-8 JSON with the session's
// AES key and a fresh IV per message; `body` is the base64 ciphertext, `iv` the base64 IV.
// The runner side is actions/runner src/Runner.Listener/MessageListener.cs, DecryptMessage:
// a message is decrypted iff the session has a non-empty key AND the message has a non-empty IV;
// otherwise `body` is used verbatim. Broker messages are never decrypted
// (BrokerMessageListener has no decryption), whatever they carry.

/** The encrypted members of a TaskAgentMessage. */
export interface EncryptedMessageBody {
  /** base64 of the AES-CBC ciphertext of the UTF-8 JSON. */
  readonly body: string;
  /** base64 of the 16-byte IV. */
  readonly iv: string;
}

/** The members of a TaskAgentMessage that decryption reads. */
export interface MessageBodyFields {
  readonly body?: string | null;
  readonly iv?: string | null;
}

/**
 * Encrypts a message body for the legacy queue. `iv` defaults to 16 fresh random bytes (never
 * reuse one: CBC with a repeated key and IV reveals equal prefixes).
 */
export function encryptMessageBody(json: string, key: Uint8Array, iv: Uint8Array = randomBytes(AES_BLOCK_BYTES)): EncryptedMessageBody {
  const ciphertext = aesCbcEncrypt(Buffer.from(json, 'utf8'), key, iv);
  return { body: encodeBase64(ciphertext), iv: encodeBase64(iv) };
}

/** True when the runner would decrypt this message with this session key. */
export function isEncryptedMessage(message: MessageBodyFields, key: Uint8Array | undefined): boolean {
  return key !== undefined && key.length > 0 && typeof message.iv === 'string' && message.iv.replace(/[\t\n\r ]/g, '') !== '';
}

/**
 * The JSON text of a message as the runner reads it: decrypted when `isEncryptedMessage`, the body
 * verbatim otherwise (a null body reads as empty). Refuses ciphertext that does not decrypt
 * (`ProtocolCryptoError`); note that CBC has no integrity check, so a damaged ciphertext whose
 * padding still checks out decrypts to garbage, which the JSON parse after this then refuses.
 */
export function decryptMessageBody(message: MessageBodyFields, key: Uint8Array | undefined): string {
  const body = message.body ?? '';
  if (!isEncryptedMessage(message, key) || key === undefined || typeof message.iv !== 'string') return body;
  const iv = decodeBase64(message.iv, 'iv');
  const ciphertext = decodeBase64(body, 'body');
  return decodeRunnerText(aesCbcDecrypt(ciphertext, key, iv));
}
