import type { JobValues } from '../../core/ports/index.js';
import type { SecretStore } from './secret-store.js';
import { openLabelled, sealLabelled, type SecretsKey } from './sealing.js';

/** The store and its key, once the key is loaded (index.ts). */
export interface LoadedSecrets {
  readonly store: SecretStore;
  readonly key: SecretsKey;
}

/**
 * The `jobValuesServiceRef` service (core/ports/job-values.ts): what a run and a job see, by the
 * spec's precedence (run-supplied > environment > repository > global), and sealing under the
 * secrets key for values that wait in the store.
 */
export function createJobValues(ready: () => Promise<LoadedSecrets>): JobValues {
  return {
    async forRun(repository, supplied) {
      const { store } = await ready();
      const stored = await store.list('secret', { repository });
      // No environment applies before a job runs: only global and repository secrets count.
      const names = new Set(stored.filter((entry) => entry.scope.environment === undefined).map((entry) => entry.name));
      for (const name of Object.keys(supplied?.secrets ?? {})) names.add(name);
      const vars = { ...(await store.resolve('var', { repository })), ...supplied?.vars };
      return { secretNames: [...names].sort(), vars };
    },
    async forJob(target, supplied) {
      const { store } = await ready();
      return {
        secrets: { ...(await store.resolve('secret', target)), ...supplied?.secrets },
        vars: { ...(await store.resolve('var', target)), ...supplied?.vars },
      };
    },
    async seal(label, text) {
      return sealLabelled((await ready()).key, label, text);
    },
    async open(label, sealed) {
      return openLabelled((await ready()).key, label, sealed);
    },
  };
}
