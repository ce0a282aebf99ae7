/**
 * Test hosts whose memory credential store starts with a runner-protocol signing key taken from
 * the machine's pool of test keys (test-rsa-keys.ts), instead of the plugin generating one at
 * every start (half a second of CPU each, hundreds of hosts per suite). Each store created gets
 * a key of its own, so a restarted host still gets a new key, as with `memory` in production.
 * Only for SQLite hosts: a host on PostgreSQL keeps the production path untouched.
 * The plugin's own generate-then-read-back path stays covered where it is tested directly
 * (test/runner-protocol/require-runner-token.test.ts) and by every `svc serve` process.
 */
import { defaultCatalog } from '../../builtins/index.js';
import { type Catalog, type CredentialBackend } from '../../core/kernel/index.js';
import { RUNNER_SIGNING_KEY_NAME } from '../../plugins/runner-protocol/auth/index.js';
import { testRsaKeyPem } from './test-rsa-keys.js';

export function withPooledSigningKey(catalog: Catalog, env: Readonly<Record<string, string>>): Catalog {
  if (env['SVC_CREDENTIAL_STORE'] !== 'memory' || (env['SVC_DATABASE_URL'] ?? '') !== '') return catalog;
  const memory = catalog.credentials['memory'] ?? defaultCatalog.credentials['memory'];
  if (memory === undefined) return catalog;
  const seeded = async (): Promise<CredentialBackend> => {
    const backend = await memory();
    return {
      ...backend,
      async create(context) {
        const store = await backend.create(context);
        await store.set(RUNNER_SIGNING_KEY_NAME, testRsaKeyPem());
        return store;
      },
    };
  };
  return { ...catalog, credentials: { ...catalog.credentials, memory: seeded } };
}
