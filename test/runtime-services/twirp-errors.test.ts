/**
 * The Twirp services and the signed blob URLs driven directly, for what the toolkit never sends:
 * unknown entries, double finalizes, bad names and keys, wrong backend ids, malformed bodies,
 * altered and expired signatures, ranged reads. Every refusal is a 4xx with its envelope.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { UPLOAD_TTL_SECS } from '../../plugins/runtime-services/index.js';
import { blockId, directJob, lookup, saveArtifact, saveEntry, uploadBlocks, VERSION } from './direct.js';
import { finish } from './job-steps.js';
import { runtimeHost, STORES } from './runtime-host.js';
import { call, twirp, type Answer } from './twirp-client.js';

function refused(answer: Answer, status: number, code: string, what: string): void {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.body['code'], code, `${what}: ${answer.text}`);
  assert.equal(typeof answer.body['msg'], 'string', `${what}: a Twirp {code, msg} envelope`);
}

function azure(answer: Answer, status: number, code: string, what: string): void {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  assert.equal(answer.headers.get('x-ms-error-code'), code, what);
  assert.match(answer.text, new RegExp(`<Error><Code>${code}</Code><Message>`), what);
}

for (const store of STORES) {
  describe(`runtime services refuse bad requests with 4xx (${store.kind})`, { skip: store.skip }, () => {
    test('CacheService: tokens, routes, bodies, keys and the entry life cycle', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const body = { key: 'k', version: VERSION };
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', body), 401, 'unauthenticated', 'no token');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', body, 'x.y.z'), 401, 'unauthenticated', 'a bad token');
      refused(await twirp(h.baseUrl, 'CacheService', 'NoSuchMethod', body, job.token), 404, 'bad_route', 'an unknown method');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', '{"key":', job.token), 400, 'malformed', 'broken JSON');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { version: VERSION }, job.token), 400, 'invalid_argument', 'no key');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'a,b', version: VERSION }, job.token), 400, 'invalid_argument', 'a comma');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'k'.repeat(513), version: VERSION }, job.token), 400, 'invalid_argument', 'a long key');
      const tooMany = { key: 'k', restore_keys: Array.from({ length: 10 }, (_, i) => `r${i}`), version: VERSION };
      refused(await twirp(h.baseUrl, 'CacheService', 'GetCacheEntryDownloadURL', tooMany, job.token), 400, 'invalid_argument', '11 keys');

      refused(await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '10' }, job.token), 404, 'not_found', 'an unknown entry');
      const created = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', body, job.token);
      assert.equal(created.body['ok'], true);
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', body, (await directJob(h)).token), 409, 'already_exists', 'a key another job is uploading');
      refused(await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '10' }, job.token), 412, 'failed_precondition', 'nothing uploaded');
      await uploadBlocks(String(created.body['signed_upload_url']), [Buffer.from('0123456789')]);
      refused(await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '11' }, job.token), 400, 'invalid_argument', 'a wrong size');
      refused(await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '99999999999999999999' }, job.token), 400, 'invalid_argument', 'an int64 too big');
      const finalized = await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '10' }, job.token);
      assert.deepEqual(finalized.body['ok'], true);
      refused(await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { ...body, size_bytes: '10' }, job.token), 409, 'already_exists', 'a double finalize');
      refused(await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', body, job.token), 409, 'already_exists', 'an existing entry');
      const put = await call(String(created.body['signed_upload_url']), { method: 'PUT', body: 'x', headers: { 'x-ms-blob-type': 'BlockBlob' } });
      azure(put, 409, 'BlobImmutableDueToPolicy', 'writing a finalized entry');
    });

    test("a job's signed upload URLs write nothing once the job ended (cache entry and artifact)", async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const cache = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'late', version: VERSION }, job.token);
      const artifact = await twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { ...job.ids, name: 'late', version: 4 }, job.token);
      const urls = [String(cache.body['signed_upload_url']), String(artifact.body['signed_upload_url'])];
      // While the job runs, both write.
      for (const url of urls) assert.equal((await call(`${url}&comp=block&blockid=${encodeURIComponent(blockId(1))}`, { method: 'PUT', body: 'x' })).status, 201, url);
      await finish(h, job.dispatched);
      for (const url of urls) {
        azure(await call(`${url}&comp=block&blockid=${encodeURIComponent(blockId(2))}`, { method: 'PUT', body: 'y' }), 403, 'AuthenticationFailed', 'a block after the job ended');
        azure(await call(url, { method: 'PUT', body: 'z', headers: { 'x-ms-blob-type': 'BlockBlob' } }), 403, 'AuthenticationFailed', 'a whole blob after the job ended');
      }
    });

    test('signed URLs: altered, expired, wrong permission and malformed requests are 403/400/416', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const bytes = randomBytes(100_000);
      await saveEntry(h, job, 'blob', bytes);
      const url = String((await lookup(h, job, 'blob')).body['signed_download_url']);
      assert.ok(url.startsWith(`${h.baseUrl}/_runtime/blobs/`), url);

      const whole = await fetch(url);
      assert.equal(whole.status, 200);
      assert.ok(Buffer.from(await whole.arrayBuffer()).equals(bytes), 'the blocks are served in list order');
      const ranged = await fetch(url, { headers: { range: 'bytes=49990-50009' } });
      assert.equal(ranged.status, 206);
      assert.equal(ranged.headers.get('content-range'), `bytes 49990-50009/${bytes.length}`);
      assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(49990, 50010)), 'a range across two blocks');
      const suffix = await fetch(url, { headers: { 'x-ms-range': 'bytes=-10' } });
      assert.ok(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 10)));
      const head = await fetch(url, { method: 'HEAD' });
      assert.deepEqual([head.status, head.headers.get('content-length'), head.headers.get('accept-ranges')], [200, String(bytes.length), 'bytes']);
      azure(await call(url, { headers: { range: `bytes=${bytes.length}-` } }), 416, 'InvalidRange', 'a range past the end');

      const sig = new URL(url).searchParams.get('sig') ?? '';
      const altered = url.replace(`sig=${sig}`, `sig=${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`);
      azure(await call(altered), 403, 'AuthenticationFailed', 'an altered signature');
      azure(await call(url.replace(/se=(\d+)/, (_, se: string) => `se=${Number(se) + 3600}`)), 403, 'AuthenticationFailed', 'a later expiry');
      azure(await call(url.replace(/\/_runtime\/blobs\/[0-9a-f-]+/, `/_runtime/blobs/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`)), 403, 'AuthenticationFailed', 'another blob');
      azure(await call(url.split('?')[0] ?? ''), 403, 'AuthenticationFailed', 'no signature');
      azure(await call(url, { method: 'PUT', body: 'x', headers: { 'x-ms-blob-type': 'BlockBlob' } }), 403, 'AuthenticationFailed', 'a read URL used to write');
      azure(await call(`${h.baseUrl}/_runtime/blobs/not-a-uuid?sp=r&se=1&sig=x`), 400, 'InvalidUri', 'a malformed blob id');

      const created = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'upload', version: VERSION }, job.token);
      const upload = String(created.body['signed_upload_url']);
      azure(await call(upload), 403, 'AuthenticationFailed', 'a write URL used to read');
      azure(await call(`${upload}&comp=block&blockid=${encodeURIComponent('not base64!')}`, { method: 'PUT', body: 'x' }), 400, 'InvalidQueryParameterValue', 'a bad block id');
      azure(await call(`${upload}&comp=blocklist`, { method: 'PUT', body: '<BlockList><Latest>' }), 400, 'InvalidXmlDocument', 'broken XML');
      const unknownBlock = `<BlockList><Latest>${blockId(7)}</Latest></BlockList>`;
      azure(await call(`${upload}&comp=blocklist`, { method: 'PUT', body: unknownBlock }), 400, 'InvalidBlockList', 'an unstaged block');
      azure(await call(upload, { method: 'PUT', body: 'x' }), 400, 'InvalidHeaderValue', 'Put Blob without x-ms-blob-type');
      azure(await call(`${upload}&comp=appendblock`, { method: 'PUT', body: 'x' }), 400, 'UnsupportedQueryParameter', 'an append blob');
      h.clock.advance((UPLOAD_TTL_SECS + 1) * 1000);
      azure(await call(upload, { method: 'PUT', body: 'x', headers: { 'x-ms-blob-type': 'BlockBlob' } }), 403, 'AuthenticationFailed', 'an expired URL');
    });

    test('ArtifactService: names, backend ids, timestamps and the artifact life cycle', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const create = (name: string, extra: Record<string, unknown> = {}) => twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { ...job.ids, name, version: 7, ...extra }, job.token);
      for (const name of ['..', '.', '../escape', 'a/b', 'a\\b', 'a:b', 'tab\there', ' padded', '']) {
        refused(await create(name), 400, 'invalid_argument', `the name ${JSON.stringify(name)}`);
      }
      refused(await create('x', { expires_at: '2001-01-01T00:00:00Z' }), 400, 'invalid_argument', 'an expiry in the past');
      refused(await create('x', { expires_at: 'tomorrow' }), 400, 'invalid_argument', 'a malformed expiry');
      refused(await twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { ...job.ids, workflow_job_run_backend_id: 'other', name: 'x' }, job.token), 403, 'permission_denied', "another job's id");
      refused(await twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { name: 'x' }, job.token), 400, 'invalid_argument', 'no backend ids');

      const finalize = (name: string, size: number) => twirp(h.baseUrl, 'ArtifactService', 'FinalizeArtifact', { ...job.ids, name, size: String(size) }, job.token);
      refused(await finalize('nope', 1), 404, 'not_found', 'an unknown artifact');
      await saveArtifact(h, job, 'logs', Buffer.from('zipped'));
      refused(await finalize('logs', 6), 409, 'already_exists', 'a double finalize');
      refused(await create('logs'), 409, 'already_exists', 'a name the run has');
      refused(await finalize('logs2', 6), 404, 'not_found', 'finalize before create');
      assert.equal((await create('logs2')).status, 200);
      refused(await finalize('logs2', 6), 412, 'failed_precondition', 'nothing uploaded');

      const named = (method: string, name: string) => twirp(h.baseUrl, 'ArtifactService', method, { ...job.ids, name }, job.token);
      refused(await named('GetSignedArtifactURL', 'nope'), 404, 'not_found', 'a missing download');
      refused(await named('GetSignedArtifactURL', 'logs2'), 404, 'not_found', 'an unfinalized download');
      refused(await named('DeleteArtifact', 'nope'), 404, 'not_found', 'a missing delete');
      refused(await twirp(h.baseUrl, 'ArtifactService', 'ListArtifacts', { ...job.ids, id_filter: 'abc' }, job.token), 400, 'invalid_argument', 'a bad id filter');
      const signed = await named('GetSignedArtifactURL', 'logs');
      const download = await fetch(String(signed.body['signed_url']));
      assert.equal(download.headers.get('content-type'), 'application/zip');
      assert.match(download.headers.get('content-disposition') ?? '', /filename="logs\.zip"/);
      assert.equal(await download.text(), 'zipped');
      assert.equal((await named('DeleteArtifact', 'logs')).body['ok'], true);
      assert.equal((await fetch(String(signed.body['signed_url']))).status, 404, 'a deleted artifact is gone');
    });

    test('cache v1 REST: bad keys, chunk ranges and another job\'s reservation', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const base = `${h.baseUrl}/_apis/artifactcache`;
      const auth = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra });
      const reserve = (key: string, token = job.token) => call(`${base}/caches`, { method: 'POST', headers: auth(token), body: JSON.stringify({ key, version: VERSION }) });
      assert.equal((await call(`${base}/cache?keys=a&version=${VERSION}`)).status, 401);
      const badKey = await reserve('a,b');
      assert.equal(badKey.status, 400);
      assert.match(String(badKey.body['message']), /without commas/);
      const reserved = await reserve('v1');
      assert.equal(reserved.status, 201, reserved.text);
      const id = Number(reserved.body['cacheId']);
      const chunk = (range: string, token = job.token) =>
        call(`${base}/caches/${id}`, { method: 'PATCH', headers: auth(token, { 'content-type': 'application/octet-stream', 'content-range': range }), body: 'abcd' });
      assert.equal((await chunk('bytes 4-3/*')).status, 400, 'an inverted range');
      assert.equal((await chunk('bytes=0-3')).status, 400, 'a malformed range');
      assert.equal((await chunk('bytes 0-9/*')).status, 400, 'a range longer than the body');
      assert.equal((await chunk('bytes 0-3/*', (await directJob(h)).token)).status, 403, "another job's reservation");
      assert.equal((await chunk('bytes 8-11/*')).status, 204);
      const commit = (size: number) => call(`${base}/caches/${id}`, { method: 'POST', headers: auth(job.token), body: JSON.stringify({ size }) });
      assert.equal((await commit(12)).status, 400, 'a gap at 0');
      assert.equal((await chunk('bytes 0-3/*')).status, 204);
      assert.equal((await chunk('bytes 4-7/*')).status, 204);
      assert.equal((await commit(13)).status, 400, 'a wrong size');
      assert.equal((await commit(12)).status, 204);
      assert.equal((await commit(12)).status, 409, 'a double commit');
      const hit = await call(`${base}/cache?keys=${encodeURIComponent('nope,v1')}&version=${VERSION}`, { headers: auth(job.token) });
      assert.equal(hit.status, 200);
      assert.equal(hit.body['cacheKey'], 'v1');
      assert.equal(await (await fetch(String(hit.body['archiveLocation']))).text(), 'abcdabcdabcd');
      const listed = await call(`${base}/caches?key=v1`, { headers: auth(job.token) });
      assert.equal(listed.body['totalCount'], 1);
      assert.equal((await call(`${base}/cache?keys=zzz&version=${VERSION}`, { headers: auth(job.token) })).status, 204);
    });
  });
}
