import type { CredentialBackend } from '../../core/kernel/index.js';
import type { CredentialStore } from '../../core/ports/index.js';
import { checkCredentialName } from './names.js';

/** Nothing persisted: values live as long as the process (SVC_CREDENTIAL_STORE=memory). */
export function createMemoryCredentialStore(): CredentialStore {
  const values = new Map<string, string>();
  return {
    kind: 'memory',
    persistent: false,
    get: async (name) => values.get(checkCredentialName(name)),
    set: async (name, value) => {
      values.set(checkCredentialName(name), value);
    },
    delete: async (name) => values.delete(checkCredentialName(name)),
  };
}

export const memoryCredentials: CredentialBackend = {
  kind: 'credentials',
  id: 'memory',
  create: async () => createMemoryCredentialStore(),
};
