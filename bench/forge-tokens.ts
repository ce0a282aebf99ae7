// `npm run bench:forge-tokens`: installation tokens for a 100-job push (BENCH_JOBS jobs) against
// the forge simulator: every job asks for svc's shared token of the push's repository (Check
// Runs, reads) at once, then a second wave asks again; and every job gets an exclusive token of
// its own (its GITHUB_TOKEN, revoked when it ends). Prints mints, cache hits and the hit rate, and
// the wall time of each wave. Asserts nothing but that every ask got a token.
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createForgeClients } from '../core/forge/index.js';
import type { CredentialStore } from '../core/ports/index.js';
import { createForgeApps, loadForgeApps, storeForgeApp } from '../plugins/forge/index.js';
import { ForgeSimulator, GitRepositories } from '../test/support/forge-simulator/index.js';
import { testRsaKeyPem } from '../test/support/test-rsa-keys.js';

const JOBS = Number(process.env['BENCH_JOBS'] ?? 100);

const entries = new Map<string, string>();
const keys: CredentialStore = { kind: 'memory', persistent: false, get: async (n) => entries.get(n), set: async (n, v) => void entries.set(n, v), delete: async (n) => entries.delete(n) };

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-forge-'));
const forge = new ForgeSimulator(new GitRepositories(dir));
try {
  await forge.start();
  const pem = testRsaKeyPem();
  forge.apps.add({ id: 1, slug: 'svc', publicKey: createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString(), installations: [{ id: 10, account: 'acme', repositories: ['acme/app'], permissions: { contents: 'read', checks: 'write', metadata: 'read' } }] });
  await storeForgeApp(keys, { appId: 1, privateKey: pem });
  const clock = { now: () => Date.now() };
  const apps = createForgeApps({ apps: await loadForgeApps(keys), client: createForgeClients({ defaultApiUrl: forge.apiUrl, clock, breaker: { enabled: true, threshold: 3 } }).forApi(), clock, hasPat: false });
  const wave = async (label: string, ask: () => Promise<unknown>) => {
    const started = performance.now();
    const tokens = await Promise.all(Array.from({ length: JOBS }, ask));
    if (tokens.some((token) => token === undefined)) throw new Error('an ask got no token');
    console.log(`${label}: ${JOBS} asks in ${(performance.now() - started).toFixed(0)} ms`);
  };
  await wave('shared, first wave', () => apps.installationToken('acme/app', { checks: 'write', contents: 'read' }));
  await wave('shared, second wave', () => apps.installationToken('acme/app', { checks: 'write', contents: 'read' }));
  const { mints, cacheHits } = apps.stats;
  console.log(`shared tokens: ${mints} mint(s), ${cacheHits} cache hits of ${2 * JOBS} asks: hit rate ${((100 * cacheHits) / (2 * JOBS)).toFixed(1)} %`);
  await wave('exclusive (one per job)', () => apps.installationToken('acme/app', { contents: 'read' }, { exclusive: true }));
  console.log(`exclusive tokens: ${apps.stats.mints - mints} mints for ${JOBS} jobs (by design: each is revoked when its job ends)`);
  console.log(`forge calls: ${forge.count()} (${forge.count('apps/get-repo-installation')} installation lookups, ${forge.count('apps/create-installation-access-token')} mints)`);
  if (forge.violations.length > 0) throw new Error(forge.violations.join('\n'));
} finally {
  await forge.stop();
  rmSync(dir, { recursive: true, force: true });
}
