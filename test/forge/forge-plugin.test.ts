import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createFileCredentialStore } from '../../backends/credentials/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import { forgeAppsServiceRef } from '../../core/ports/index.js';
import { storeForgeApp } from '../../plugins/forge/index.js';
import { startForgeSimulator } from '../support/forge-simulator/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { testRsaKeyPem } from '../support/test-rsa-keys.js';

/** A test plugin that asks the forge plugin for the installation of a repository (`GET /probe/<owner>/<repo>`). */
const probe = definePlugin({
  id: 'forge-probe',
  apiVersion: 1,
  deps: { apps: forgeAppsServiceRef },
  init({ apps }, env) {
    env.addRoutes({
      auth: 'system',
      register: (app) => {
        app.get<{ Params: { owner: string; repo: string } }>('/probe/:owner/:repo', async (request) => ({ installation: (await apps.installationFor(`${request.params.owner}/${request.params.repo}`)) ?? null }));
      },
    });
  },
});

async function hostWithApp(t: TestContext, privateKey: string, extraEnv: Record<string, string> = {}) {
  const forge = await startForgeSimulator(t);
  const key = testRsaKeyPem();
  forge.apps.add({ id: 101, slug: 'svc-acme', publicKey: createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString(), installations: [{ id: 1001, account: 'acme', repositories: ['acme/app'], permissions: { contents: 'read' } }] });
  const hostEnv = createHostEnv({ SVC_CREDENTIAL_STORE: 'file', SVC_FORGE_API_URL: forge.apiUrl, ...extraEnv });
  t.after(() => hostEnv.cleanup());
  hostEnv.writePlugins('[[plugin]]\nid = "management-api"\n\n[[plugin]]\nid = "forge"\n\n[[plugin]]\nid = "forge-probe"\n');
  // On one node the shared keys are the credential store: the App is stored where svc setup forge puts it.
  const store = await createFileCredentialStore(join(hostEnv.env.SVC_DATA_DIR ?? '', 'credentials'));
  await storeForgeApp(store, { appId: 101, privateKey: privateKey === 'good' ? key : privateKey });
  const catalog = { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'forge-probe': async () => ({ plugin: probe }) } };
  const start = async (): Promise<Host> => {
    const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog });
    t.after(() => host.stop());
    await host.start();
    return host;
  };
  return { forge, store, start };
}

const auth = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` };

describe('forge plugin in the host', () => {
  it('loads the stored App, finds installations through it, and lists forge_unavailable in /api/v1/status while the breaker is open', async (t) => {
    const { forge, start } = await hostWithApp(t, 'good', { SVC_FORGE_BREAKER_THRESHOLD: '1' });
    const host = await start();
    const found = await host.app.inject({ method: 'GET', url: '/probe/acme/app', headers: auth });
    assert.deepEqual(found.json(), { installation: { appId: 101, installationId: 1001 } });
    const calm = (await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: auth })).json<{ warnings: { code: string }[] }>();
    assert.ok(!calm.warnings.some((warning) => warning.code === 'forge_unavailable'));

    await forge.stop();
    const down = await host.app.inject({ method: 'GET', url: '/probe/acme/other', headers: auth });
    assert.equal(down.statusCode, 503, down.body);
    const fast = await host.app.inject({ method: 'GET', url: '/probe/acme/third', headers: auth });
    assert.equal(fast.statusCode, 503);
    assert.match(fast.json<{ message: string }>().message, /circuit breaker open.*svc tries it again in \d+ s/);
    const status = (await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: auth })).json<{ warnings: { code: string; message: string }[] }>();
    const warning = status.warnings.find((candidate) => candidate.code === 'forge_unavailable');
    assert.match(warning?.message ?? '', new RegExp(`the forge at ${forge.apiUrl.replace(/[.]/g, '\\.')} is unavailable \\(circuit breaker open`));
  });

  it('a stored key that does not parse stops the start, naming the App and what to fix', async (t) => {
    const { store, start } = await hostWithApp(t, 'good');
    await store.set('forge.app.101', JSON.stringify({ appId: 101, privateKey: '-----BEGIN RSA PRIVATE KEY-----\nnot really\n-----END RSA PRIVATE KEY-----\n' }));
    await assert.rejects(start(), /forge App 101: its private key \(credential forge\.app\.101\) cannot be used.*svc setup forge --via app --app-id 101/);
  });
});
