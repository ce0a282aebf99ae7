import { encryptMessageBody, type TaskAgentMessage } from '../../../core/protocol/index.js';

/**
 * A message on the legacy queue (§2.3.1): the body AES-CBC-encrypted with the session key and a
 * fresh IV (§2.3.2), so the runner decrypts it (it decrypts iff the session has a key and the
 * message an `iv`).
 */
export function taskAgentMessageWire(message: { readonly id: number; readonly messageType: string }, body: string, sessionKey: Uint8Array): TaskAgentMessage {
  const encrypted = encryptMessageBody(body, sessionKey);
  return { messageId: message.id, messageType: message.messageType, body: encrypted.body, iv: encrypted.iv };
}
