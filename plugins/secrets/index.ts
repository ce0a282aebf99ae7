import { coreServices, definePlugin } from '../../core/kernel/index.js';
import { jobValuesServiceRef } from '../../core/ports/index.js';
import { secretsCommands } from './cli/index.js';
import { createJobValues } from './job-values.js';
import { memoryRows } from './rows.js';
import { registerValueRoutes } from './routes.js';
import { openSecrets, type OpenedSecrets } from './open-store.js';
import { sealConfigSecret } from './sealing.js';
import type { SecretStore } from './secret-store.js';
import { secretsMigrations, sqlRows } from './sql-rows.js';

export { createJobValues } from './job-values.js';
export { checkName, checkValue } from './scope.js';
export { createSecretStore, precedence, type ListedValue, type SecretStore, type ValueTarget } from './secret-store.js';
export { secretsMigrations } from './sql-rows.js';
export { SECRETS_KEY_NAME } from './secrets-key.js';
export { MAX_VALUE_BYTES, type Scope, type ValueKind } from './scope.js';
export type { ListedValueView, ValueListView } from './routes.js';

/**
 * Secrets and configuration variables by scope (global, `owner/repo`, an environment of a
 * repository), with `svc secret` / `svc var` and their routes under `/api/v1` (README.md). Secret
 * values are sealed with AES-256-GCM under the secrets key kept in the shared keys; variables are
 * plain. `secrets_store = "memory"` keeps every mutation in this process only.
 */
export const plugin = definePlugin({
  id: 'secrets',
  apiVersion: 1,
  // What runs and jobs see (core/ports/job-values.ts): local-runs and runner-protocol take it as optional.
  provides: [jobValuesServiceRef],
  deps: {
    config: coreServices.config,
    database: coreServices.database,
    sharedKeys: coreServices.sharedKeys,
    credentialStore: coreServices.credentialStore,
    clock: coreServices.clock,
    logger: coreServices.logger,
  },
  commands: secretsCommands,
  async init({ config, database, sharedKeys, credentialStore, clock, logger }, env) {
    env.addMigrations(secretsMigrations);
    const inMemory = config.operator.secrets_store === 'memory';
    const rows = inMemory ? memoryRows() : sqlRows(database);
    // Migrations run right after init, so the key is loaded (and checked against the stored
    // secrets) when workers start, before the server listens: a key that cannot be read stops the start.
    // The config file's [secrets] maps and the service-manager credential are opened then too
    // (open-store.ts); a failed open is tried again by the next caller.
    let opened: Promise<OpenedSecrets> | undefined;
    const openedSecrets = (): Promise<OpenedSecrets> =>
      (opened ??= openSecrets({ config, rows, sharedKeys, credentialStore, clock, logger }).catch((error: unknown) => {
        opened = undefined;
        throw error;
      }));
    const ready = async (): Promise<SecretStore> => (await openedSecrets()).store;
    env.provideService(jobValuesServiceRef, createJobValues(openedSecrets));
    env.addWorker({ name: 'secrets-key', start: async () => void (await ready()), stop: () => undefined });
    if (inMemory) logger.info('secrets_store = "memory": secrets and variables set now are gone when the server stops');
    env.addRoutes({
      prefix: '/api/v1',
      auth: 'system',
      register: (app) =>
        registerValueRoutes(app, { store: lazyStore(ready), seal: async (scope, name, value) => sealConfigSecret((await openedSecrets()).key, scope, name, value) }),
    });
  },
});

/** The store once the key is loaded; each call waits for that. */
function lazyStore(ready: () => Promise<SecretStore>): SecretStore {
  return {
    set: async (...args) => (await ready()).set(...args),
    list: async (...args) => (await ready()).list(...args),
    remove: async (...args) => (await ready()).remove(...args),
    resolve: async (...args) => (await ready()).resolve(...args),
  };
}
