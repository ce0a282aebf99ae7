import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin } from '../../core/kernel/index.js';
import type { BlobUrlSigner } from '../../core/ports/index.js';
import { createHostEnv } from '../support/host-env.js';
import { ManualClock } from '../support/manual-clock.js';

describe('signed blob URLs over HTTP', () => {
  it('round-trips bytes through signed PUT and GET, and refuses expired or altered URLs', async () => {
    const hostEnv = createHostEnv();
    after(() => hostEnv.cleanup());
    hostEnv.writePlugins('[[plugin]]\nid = "blobs"\n\n[[plugin]]\nid = "grabber"\n');
    let signer: BlobUrlSigner | undefined;
    const grabber = definePlugin({ id: 'grabber', apiVersion: 1, deps: { signer: coreServices.blobSigner }, init: (deps) => void (signer = deps.signer) });
    const clock = new ManualClock();
    const host = await createHost({
      env: hostEnv.env,
      cwd: hostEnv.dir,
      logger: createSilentLogger(),
      clock,
      catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, grabber: async () => ({ plugin: grabber }) } },
    });
    await host.start();
    after(() => host.stop());
    assert.ok(signer);

    const body = Buffer.from('log line 1\nlog line 2\n');
    const put = signer.sign({ key: 'logs/run-1/job-1.log', method: 'PUT', ttlSeconds: 60 });
    const uploaded = await host.app.inject({ method: 'PUT', url: put, payload: body, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    assert.deepEqual(uploaded.json(), { key: 'logs/run-1/job-1.log', size: body.length });

    const get = signer.sign({ key: 'logs/run-1/job-1.log', method: 'GET', ttlSeconds: 60 });
    const downloaded = await host.app.inject({ method: 'GET', url: get });
    assert.equal(downloaded.statusCode, 200);
    assert.deepEqual(downloaded.rawPayload, body);

    // A GET URL does not allow a PUT, and no URL survives an edit.
    assert.equal((await host.app.inject({ method: 'PUT', url: get, payload: 'x' })).statusCode, 401);
    const otherKey = get.replace('job-1.log', 'job-2.log');
    const tampered = await host.app.inject({ method: 'GET', url: otherKey });
    assert.equal(tampered.statusCode, 401);
    assert.equal(tampered.json().code, 'signature_invalid');
    assert.equal((await host.app.inject({ method: 'GET', url: '/_blobs/logs/run-1/job-1.log' })).statusCode, 401);

    clock.advance(61_000);
    const expired = await host.app.inject({ method: 'GET', url: get });
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().code, 'signature_expired');

    const missing = await host.app.inject({ method: 'GET', url: signer.sign({ key: 'logs/none', method: 'GET', ttlSeconds: 60 }) });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'blob_not_found');
  });
});
