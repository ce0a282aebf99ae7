/**
 * Two nodes (two hosts, each with its own data dir and memory credential store) on one
 * PostgreSQL schema with one cluster key file: whatever one node signs, the other accepts. Job
 * tokens (the runner-protocol key, which also signs runner tokens), the runtime services' blob
 * URLs, the kernel's `/_blobs` URLs and OIDC ID tokens.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { loadSigningKey } from '../../plugins/runner-protocol/auth/index.js';
import { directJob, lookup, uploadBlocks, VERSION } from '../runtime-services/direct.js';
import { dispatch, startRun } from '../runtime-services/job-steps.js';
import { runtimeHost, type RuntimeHost } from '../runtime-services/runtime-host.js';
import { call, twirp } from '../runtime-services/twirp-client.js';
import { postgresSchemaUrl, requireService, tempDir } from '../support/services.js';

const postgres = await requireService('postgres');

const OIDC_WORKFLOW = `on: push
permissions:
  id-token: write
jobs:
  deploy:
    runs-on: [self-hosted, linux]
    steps:
      - run: deploy
`;

/** The same URL with another node's origin: what a round-robin proxy does to the next request. */
function onNode(url: string, node: RuntimeHost): string {
  const parsed = new URL(url);
  return `${node.baseUrl}${parsed.pathname}${parsed.search}`;
}

describe('two nodes on one PostgreSQL schema share their keys', { skip: postgres.skip }, () => {
  it('accept what the other node signed', async (t) => {
    const env = { SVC_DATABASE_URL: postgresSchemaUrl(t, postgres.url ?? '').url, SVC_CLUSTER_KEY_FILE: join(await tempDir(t), 'cluster.key') };
    const a = await runtimeHost(t, 'postgres', env);
    const b = await runtimeHost(t, 'postgres', env);

    assert.equal((await loadSigningKey(a.sharedKeys)).kid, (await loadSigningKey(b.sharedKeys)).kid, 'one token-signing key');

    // A job token minted by A (dispatch signs with A's key) opens B's cache service; the upload
    // URL B signs is accepted by A, and the download URL A signs by B.
    const job = await directJob(a);
    const created = await twirp(b.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'deps', version: VERSION }, job.token);
    assert.equal(created.status, 200, `B accepts A's job token: ${created.text}`);
    const bytes = Buffer.from('cached bytes '.repeat(100));
    await uploadBlocks(onNode(String(created.body['signed_upload_url']), a), [bytes]);
    const finalized = await twirp(a.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { key: 'deps', version: VERSION, size_bytes: String(bytes.length) }, job.token);
    assert.equal(finalized.status, 200, finalized.text);
    const found = await lookup(a, job, 'deps');
    assert.equal(found.status, 200, found.text);
    const download = await fetch(onNode(String(found.body['signed_download_url']), b));
    assert.equal(download.status, 200, 'B accepts the download URL A signed');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);

    // The kernel's /_blobs URLs.
    await a.blobStore.put('shared-keys-test/blob', Buffer.from('hello'));
    const signed = a.blobSigner.sign({ key: 'shared-keys-test/blob', method: 'GET', ttlSeconds: 60 });
    const served = await fetch(`${b.baseUrl}${signed}`);
    assert.equal(served.status, 200, "B serves A's signed /_blobs URL");
    assert.equal(await served.text(), 'hello');
    const forged = await fetch(`${b.baseUrl}${signed.replace(/sig=[^&]+/, 'sig=AAAA')}`);
    assert.equal(forged.status, 401, 'a wrong signature is still refused');

    // An OIDC ID token A issues verifies against B's JWKS.
    await startRun(a, OIDC_WORKFLOW);
    const deploy = await dispatch(a);
    const issued = await call(`${a.baseUrl}/_apis/oidc/idtoken/${deploy.info.planId}/${deploy.info.jobId}?api-version=2.0&audience=aud`, {
      headers: { authorization: `Bearer ${deploy.info.token}` },
    });
    assert.equal(issued.status, 200, issued.text);
    const token = String(issued.body['value']);
    const jwks = await call(`${b.baseUrl}/.well-known/jwks`);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body as unknown as JSONWebKeySet), { audience: 'aud', algorithms: ['RS256'], currentDate: new Date(a.clock.now()) });
    assert.equal(payload.sub, 'repo:acme/widgets:ref:refs/heads/main');
    assert.ok(decodeProtectedHeader(token).kid);
  });
});
