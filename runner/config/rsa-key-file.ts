import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  formatRsaParametersFile,
  parseRsaParametersFile,
  ProtocolCryptoError,
  RUNNER_RSA_KEY_BITS,
  rsaParametersFromPrivateKey,
  rsaParametersToPrivateKey,
} from '../../core/protocol/index.js';
import { ROOT_FILES, RunnerConfigError, type RunnerRoot } from './runner-root.js';

/** The runner's RSA key from `.credentials_rsaparams` (§1.8), or undefined when there is none. */
export async function readRunnerKey(root: RunnerRoot): Promise<KeyObject | undefined> {
  const text = await root.readText(ROOT_FILES.rsaParams);
  if (text === undefined) return undefined;
  try {
    return rsaParametersToPrivateKey(parseRsaParametersFile(text));
  } catch (error) {
    if (error instanceof ProtocolCryptoError) {
      throw new RunnerConfigError(`${root.path(ROOT_FILES.rsaParams)} does not hold the runner's key (${error.message}); configure the runner again`, { cause: error });
    }
    throw error;
  }
}

export async function writeRunnerKey(root: RunnerRoot, key: KeyObject): Promise<void> {
  await root.writeOwnerOnly(ROOT_FILES.rsaParams, formatRsaParametersFile(rsaParametersFromPrivateKey(key)));
}

/** The existing key, or a new 2048-bit one saved first (the runner reuses its key file, §1.1). */
export async function loadOrCreateRunnerKey(root: RunnerRoot): Promise<KeyObject> {
  const existing = await readRunnerKey(root);
  if (existing !== undefined) return existing;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RUNNER_RSA_KEY_BITS });
  await writeRunnerKey(root, privateKey);
  return privateKey;
}
