/**
 * /readyz tells why the built-in pool runs without the default isolation or not at all (the
 * issue: "a clear reason in /readyz and logs when not"), and stays ready either way.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { createHost, createSilentLogger, type Catalog } from '../../core/kernel/index.js';
import { createVmPoolPlugin, type IsolationBackend, type IsolationKind, type VmPoolOptions } from '../../plugins/vm-pool/index.js';
import { createHostEnv } from '../support/host-env.js';

function fake(kind: IsolationKind, ok: boolean, reason: string): () => Promise<IsolationBackend> {
  return async () => ({ kind, probe: async () => ({ ok, reason }), launch: async () => assert.fail('no guest is launched with SVC_POOL_WARM=0') });
}

async function readyz(backends: NonNullable<VmPoolOptions['backends']>, env: Record<string, string> = {}) {
  const hostEnv = createHostEnv({ SVC_POOL_BACKEND: 'auto', SVC_POOL_WARM: '0', ...env });
  after(() => hostEnv.cleanup());
  hostEnv.writePlugins(['management-api', 'engine', 'runner-protocol', 'vm-pool'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  const catalog: Catalog = { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'vm-pool': async () => ({ plugin: createVmPoolPlugin({ backends }) }) } };
  const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog });
  await host.start();
  try {
    const answer = await host.app.inject({ method: 'GET', url: '/readyz' });
    return { status: answer.statusCode, body: answer.json() as { ready: boolean; notes?: Record<string, string> } };
  } finally {
    await host.stop();
  }
}

describe('built-in pool: /readyz', () => {
  it('says nothing when namespace isolation is used', async () => {
    const answer = await readyz({ namespace: fake('namespace', true, 'user namespaces work'), microvm: fake('microvm', false, 'no kvm') });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.notes, undefined);
  });

  it('names the fallback to the process backend and its reason, and stays ready', async () => {
    const answer = await readyz({ namespace: fake('namespace', false, 'unprivileged user namespaces are disabled'), microvm: fake('microvm', false, 'no kvm') });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.ready, true);
    assert.match(answer.body.notes?.['vm-pool/pool'] ?? '', /without isolation \(process backend\): the namespace backend cannot be used: unprivileged user namespaces are disabled/);
  });

  it('says when no backend can run guests', async () => {
    const answer = await readyz({ namespace: fake('namespace', false, 'no namespaces'), process: fake('process', false, 'not Linux'), microvm: fake('microvm', false, 'no kvm') });
    assert.equal(answer.status, 200);
    assert.match(answer.body.notes?.['vm-pool/pool'] ?? '', /the built-in pool runs no guests: no isolation backend can run guests on this host/);
  });
});
