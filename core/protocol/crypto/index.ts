export type { ProtocolCryptoErrorCode } from './protocol-crypto-error.js';
export { ProtocolCryptoError } from './protocol-crypto-error.js';
export { AES_BLOCK_BYTES, AES_KEY_LENGTHS } from './aes-cbc.js';
export type { RsaParameters, TaskAgentPublicKey } from './rsa-parameters.js';
export {
  RUNNER_RSA_KEY_BITS,
  formatRsaParametersFile,
  parseRsaParametersFile,
  rsaParametersFromPrivateKey,
  rsaParametersToPrivateKey,
  taskAgentPublicKeyFromKey,
  taskAgentPublicKeyToKeyObject,
} from './rsa-parameters.js';
export type { OaepHash, SessionKeyOptions } from './session-key.js';
export { SESSION_KEY_BYTES, createSessionKey, plainSessionKey, sessionKeyOaepHash, unwrapSessionKey, wrapSessionKey } from './session-key.js';
export type { EncryptedMessageBody, MessageBodyFields } from './message-body.js';
export { decryptMessageBody, encryptMessageBody, isEncryptedMessage } from './message-body.js';
