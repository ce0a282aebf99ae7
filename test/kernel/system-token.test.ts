import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { createHost, createSilentLogger } from '../../core/kernel/index.js';
import { createHostEnv } from '../support/host-env.js';

describe('system token', () => {
  it('is generated into the file credential store when SVC_SYSTEM_TOKEN is unset, and reused after a restart', async () => {
    const hostEnv = createHostEnv({ SVC_CREDENTIAL_STORE: 'file' });
    after(() => hostEnv.cleanup());
    delete hostEnv.env.SVC_SYSTEM_TOKEN;
    hostEnv.writePlugins('[[plugin]]\nid = "management-api"\n');
    const start = async () => {
      const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog });
      await host.start();
      return host;
    };
    const first = await start();
    const tokenFile = join(hostEnv.env.SVC_DATA_DIR ?? '', 'credentials', 'system-token');
    const token = readFileSync(tokenFile, 'utf8');
    assert.match(token, /^svc_[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const ok = await first.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.statusCode, 200);
    await first.stop();

    const second = await start();
    assert.equal(readFileSync(tokenFile, 'utf8'), token, 'the same token after a restart');
    const again = await second.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `token ${token}` } });
    assert.equal(again.statusCode, 200);
    await second.stop();
  });

  it('SVC_SYSTEM_TOKEN wins and is not written to the store', async () => {
    const hostEnv = createHostEnv({ SVC_CREDENTIAL_STORE: 'file', SVC_SYSTEM_TOKEN: 'from-the-environment-123' });
    after(() => hostEnv.cleanup());
    hostEnv.writePlugins('[[plugin]]\nid = "management-api"\n');
    const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog });
    await host.start();
    const response = await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: 'Bearer from-the-environment-123' } });
    assert.equal(response.statusCode, 200);
    assert.throws(() => statSync(join(hostEnv.env.SVC_DATA_DIR ?? '', 'credentials', 'system-token')));
    await host.stop();
  });
});
