/**
 * Eviction and retention, one sweep pass at a time on the host's store: cache entries unused for
 * the age limit, the least recently used beyond a repository's size limit, abandoned reservations
 * and uploads; artifacts past their retention (the default, a shorter one, never a longer one).
 * What goes leaves neither a row nor bytes in the blob store.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UPLOAD_TTL_SECS } from '../../plugins/runtime-services/index.js';
import { runtimeDb } from '../../plugins/runtime-services/store/index.js';
import { directJob, lookup, saveArtifact, saveEntry, storedKeys, sweep, VERSION } from './direct.js';
import { runtimeHost, STORES } from './runtime-host.js';
import { twirp } from './twirp-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const store of STORES) {
  describe(`cache eviction and artifact retention (${store.kind})`, { skip: store.skip }, () => {
    test('cache: entries unused for the age limit go; a restore keeps an entry alive', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const writer = await directJob(h);
      await saveEntry(h, writer, 'kept', Buffer.alloc(100, 1));
      await saveEntry(h, writer, 'stale', Buffer.alloc(100, 2));
      h.clock.advance(6 * DAY_MS);
      assert.equal((await lookup(h, await directJob(h), 'kept')).body['matched_key'], 'kept', 'restored on day 6');
      h.clock.advance(2 * DAY_MS);
      const report = await sweep(h, { maxAgeDays: 7 });
      assert.equal(report.cacheUnused, 1);
      const reader = await directJob(h);
      assert.equal((await lookup(h, reader, 'kept')).body['matched_key'], 'kept');
      assert.equal((await lookup(h, reader, 'stale')).body['ok'], false, 'the stale entry is a miss');
      assert.equal((await storedKeys(h)).length, 2, 'only the kept entry\'s two blocks remain');
    });

    test('cache: over the size limit the least recently used go, per repository', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const widgets = await directJob(h);
      const other = await directJob(h, { repository: 'acme/other' });
      for (const key of ['a', 'b', 'c']) {
        await saveEntry(h, widgets, key, Buffer.alloc(1000, key));
        h.clock.advance(1000);
      }
      await saveEntry(h, other, 'x', Buffer.alloc(1000, 'x'));
      h.clock.advance(1000);
      await lookup(h, widgets, 'a'); // `a` is now the most recently used
      const report = await sweep(h, { maxBytes: 2500 });
      assert.equal(report.cacheOversize, 1);
      const reader = await directJob(h);
      const hits = await Promise.all(['a', 'b', 'c'].map(async (key) => (await lookup(h, reader, key)).body['matched_key'] ?? null));
      assert.deepEqual(hits, ['a', null, 'c'], 'b was the least recently used');
      assert.equal((await lookup(h, await directJob(h, { repository: 'acme/other' }), 'x')).body['matched_key'], 'x', 'another repository keeps its own budget');
    });

    test('cache: a reservation never finalized is dropped after the upload window, and its key is free again', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const created = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'abandoned', version: VERSION }, job.token);
      await fetch(String(created.body['signed_upload_url']), { method: 'PUT', body: 'partial', headers: { 'x-ms-blob-type': 'BlockBlob' } });
      assert.equal((await sweep(h)).cacheStale, 0, 'not yet');
      h.clock.advance((UPLOAD_TTL_SECS + 1) * 1000);
      assert.equal((await sweep(h)).cacheStale, 1);
      assert.deepEqual(await storedKeys(h), []);
      const again = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key: 'abandoned', version: VERSION }, (await directJob(h)).token);
      assert.equal(again.body['ok'], true);
    });

    test('artifacts: the default retention, a shorter one, and never longer than the limit', async (t) => {
      const h = await runtimeHost(t, store.kind, { SVC_ARTIFACT_RETENTION_DAYS: '30' });
      const job = await directJob(h);
      const inDays = (days: number) => new Date(h.clock.now() + days * DAY_MS).toISOString();
      await saveArtifact(h, job, 'default', Buffer.from('d'));
      await saveArtifact(h, job, 'short', Buffer.from('s'), inDays(2));
      await saveArtifact(h, job, 'long', Buffer.from('l'), inDays(400));
      // The job's token does not outlive the job (hours), so the store says what is kept.
      const names = async () => (await runtimeDb(h.database).selectFrom('runtime_artifacts').select('name').orderBy('name').execute()).map((row) => row.name);
      assert.deepEqual(await names(), ['default', 'long', 'short']);
      h.clock.advance(3 * DAY_MS);
      assert.equal((await sweep(h)).artifactsExpired, 1);
      h.clock.advance(26 * DAY_MS);
      assert.equal((await sweep(h)).artifactsExpired, 0, 'day 29: the rest are kept');
      assert.deepEqual(await names(), ['default', 'long']);
      h.clock.advance(2 * DAY_MS);
      assert.equal((await sweep(h)).artifactsExpired, 2, 'day 31: both reached the 30-day limit');
      assert.deepEqual(await storedKeys(h), []);
    });

    test('artifacts: an upload never finalized is dropped after the upload window', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const job = await directJob(h);
      const created = await twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { ...job.ids, name: 'half', version: 7 }, job.token);
      await fetch(`${String(created.body['signed_upload_url'])}&comp=block&blockid=${encodeURIComponent(Buffer.from('b1').toString('base64'))}`, { method: 'PUT', body: 'half' });
      assert.equal((await storedKeys(h)).length, 1);
      h.clock.advance((UPLOAD_TTL_SECS + 1) * 1000);
      assert.equal((await sweep(h)).artifactsExpired, 1);
      assert.deepEqual(await storedKeys(h), []);
    });
  });
}
