import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSvcError } from '../../../core/kernel/index.js';
import { parseBlockList } from './block-list.js';
import { parseByteRange } from './byte-range.js';
import { createBlobUrlCapabilities } from './url-signer.js';

const id = (n: number) => Buffer.from(`blk-${n}`).toString('base64');

test('a block list as the Azure SDK writes it gives the ids in order', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<BlockList>\n  <Latest>${id(2)}</Latest><Committed>${id(0)}</Committed>\n<Uncommitted>${id(1)}</Uncommitted></BlockList>`;
  assert.deepEqual(parseBlockList(xml), [id(2), id(0), id(1)]);
  assert.deepEqual(parseBlockList('<BlockList></BlockList>'), []);
});

test('anything else in a block list is refused as invalid XML or an invalid block id', () => {
  for (const xml of ['', '<Blocks/>', `<BlockList><Latest>${id(1)}</Latest>`, `<BlockList><Other>${id(1)}</Other></BlockList>`, '<BlockList><Latest><x/></Latest></BlockList>']) {
    assert.throws(() => parseBlockList(xml), (error) => isSvcError(error) && error.status === 400, JSON.stringify(xml));
  }
  assert.throws(() => parseBlockList('<BlockList><Latest>not base64!</Latest></BlockList>'), /not a block id/);
  assert.throws(() => parseBlockList(`<BlockList><Latest>${Buffer.alloc(65).toString('base64')}</Latest></BlockList>`), /at most 64 bytes/);
});

test('byte ranges: a-b, a-, -n, clipped; none for other forms; 416 past the end', () => {
  assert.deepEqual(parseByteRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(parseByteRange('bytes=90-200', 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange('bytes=95-', 100), { start: 95, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-10', 100), { start: 90, end: 99 });
  assert.deepEqual(parseByteRange('bytes=-500', 100), { start: 0, end: 99 });
  for (const header of [undefined, 'bytes=0-1,5-6', 'items=0-1', 'bytes=-', 'bytes=9-3']) assert.equal(parseByteRange(header, 100), undefined, String(header));
  assert.throws(() => parseByteRange('bytes=100-', 100), (error) => isSvcError(error) && error.status === 416);
  assert.equal(parseByteRange('bytes=0-1', 0), undefined, 'an empty blob is sent whole');
});

test('signed URLs: the signature covers blob, permission, expiry and disposition', () => {
  let now = 1_000_000_000_000;
  const signer = createBlobUrlCapabilities('0123456789abcdef0123456789abcdef', { now: () => now });
  const query = Object.fromEntries(new URLSearchParams(signer.sign('blob-1', 'r', 60, { contentDisposition: 'attachment; filename="a.zip"' })));
  assert.deepEqual(signer.verify('blob-1', 'r', query), { contentDisposition: 'attachment; filename="a.zip"' });
  const refused = (q: Record<string, unknown>, blob = 'blob-1', permission: 'r' | 'w' = 'r') =>
    assert.throws(() => signer.verify(blob, permission, q), (error) => isSvcError(error) && error.status === 401);
  refused(query, 'blob-2');
  refused(query, 'blob-1', 'w');
  refused({ ...query, rscd: 'inline' });
  refused({ ...query, se: String(Number(query['se']) + 1) });
  refused({ ...query, sp: 'w' });
  refused({});
  now += 61_000;
  assert.throws(() => signer.verify('blob-1', 'r', query), /expired/);
  const other = createBlobUrlCapabilities('another-secret-0123456789abcdef', { now: () => now });
  assert.throws(() => other.verify('blob-1', 'r', Object.fromEntries(new URLSearchParams(signer.sign('blob-1', 'r', 60)))), /does not match/);
});
