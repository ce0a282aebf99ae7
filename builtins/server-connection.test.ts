import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { resolveConnection } from '../core/kernel/cli/index.js';
import { createSilentLogger, SYSTEM_TOKEN_NAME, systemClock } from '../core/kernel/index.js';
import { credentialBackends } from './index.js';

/** A data directory whose file credential store holds a system token, as `svc serve` leaves it. */
async function servedDataDir(t: TestContext): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-connection-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = credentialBackends['file'];
  assert.ok(file);
  const store = await (await file()).create({ logger: createSilentLogger(), clock: systemClock, dataDir: dir });
  await store.set(SYSTEM_TOKEN_NAME, 'stored-system-token');
  return { SVC_DATA_DIR: dir, SVC_CREDENTIAL_STORE: 'file', SVC_CONFIG: '', SVC_URL: 'http://127.0.0.1:9' };
}

describe("resolveConnection with the built-ins' credential backends", () => {
  it('reads the system token `svc serve` stored, through the backends it is given', async (t) => {
    const env = await servedDataDir(t);
    assert.deepEqual(await resolveConnection(env, tmpdir(), credentialBackends), { baseUrl: 'http://127.0.0.1:9', token: 'stored-system-token' });
  });

  it('needs no backend when SVC_TOKEN is set, and says so when an entry point provided none', async (t) => {
    const env = await servedDataDir(t);
    assert.equal((await resolveConnection({ ...env, SVC_TOKEN: 'given' }, tmpdir())).token, 'given');
    await assert.rejects(resolveConnection(env, tmpdir()), /no credential backends were provided to the CLI: the entry point calls provideCredentialBackends/);
  });
});
