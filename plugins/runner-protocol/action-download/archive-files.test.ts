import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { MAX_MANIFEST_BYTES, readArchiveFile, topLevelDirectory } from './archive-files.js';

type Entry = { readonly name: string; readonly type?: 'file' | 'directory'; readonly text?: string };

async function tar(entries: readonly Entry[]): Promise<Buffer> {
  const archive = pack();
  for (const entry of entries) archive.entry({ name: entry.name, type: entry.type ?? 'file' }, entry.text ?? '');
  archive.finalize();
  const chunks: Buffer[] = [];
  // streamx types chunks as unknown; in Node, tar-stream's chunks are Buffers.
  for await (const chunk of archive as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A pax global header (type `g`) carrying the commit, as git archive and the forge write first; tar-stream packs none. */
async function globalHeader(): Promise<Buffer> {
  const record = `52 comment=${'a'.repeat(40)}\n`;
  const block = await tar([{ name: 'pax_global_header', text: record }]);
  const entry = Buffer.from(block.subarray(0, 1024)); // header + one data block, without the end-of-archive blocks
  entry[156] = 'g'.charCodeAt(0);
  entry.fill(0x20, 148, 156);
  let sum = 0;
  for (let index = 0; index < 512; index += 1) sum += entry[index] ?? 0;
  entry.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return entry;
}

async function tarGz(entries: readonly Entry[], withGlobalHeader = false): Promise<Buffer> {
  const body = await tar(entries);
  return gzipSync(withGlobalHeader ? Buffer.concat([await globalHeader(), body]) : body);
}

describe('action archives', () => {
  it('finds the one top-level directory the runner needs, past the pax global header', async () => {
    const archive = await tarGz(
      [
        { name: 'acme-tool-abc1234/', type: 'directory' },
        { name: 'acme-tool-abc1234/action.yml', text: 'name: t\n' },
        { name: 'acme-tool-abc1234/lib/x.js', text: '1' },
      ],
      true,
    );
    assert.deepEqual(await topLevelDirectory(archive), { dir: 'acme-tool-abc1234' });
  });

  it('says what is wrong with an archive the runner would refuse', async () => {
    const two = await tarGz([{ name: 'a/action.yml' }, { name: 'b/action.yml' }]);
    assert.deepEqual(await topLevelDirectory(two), { problem: 'it has 2 top-level directories, the runner takes exactly one' });
    const loose = await tarGz([{ name: 'a/action.yml' }, { name: 'README.md' }]);
    assert.deepEqual(await topLevelDirectory(loose), { problem: "it has a file at the top level ('README.md')" });
    assert.deepEqual(await topLevelDirectory(await tarGz([])), { problem: 'it is empty' });
    const notGzip = await topLevelDirectory(Buffer.from('<html>rate limited</html>'));
    assert.ok('problem' in notGzip && notGzip.problem.startsWith('it is not a readable tar.gz'), JSON.stringify(notGzip));
  });

  it('reads a file below the top-level directory, and nothing else', async () => {
    const archive = await tarGz([
      { name: 'acme-tool-abc1234/action.yml', text: 'name: root\n' },
      { name: 'acme-tool-abc1234/sub/action.yml', text: 'name: sub\n' },
      { name: 'acme-tool-abc1234/big.yml', text: 'x'.repeat(MAX_MANIFEST_BYTES + 1) },
    ]);
    assert.equal(await readArchiveFile(Readable.from([archive]), 'sub/action.yml'), 'name: sub\n');
    assert.equal(await readArchiveFile(Readable.from([archive]), 'action.yml'), 'name: root\n');
    assert.equal(await readArchiveFile(Readable.from([archive]), 'missing.yml'), undefined);
    assert.equal(await readArchiveFile(Readable.from([archive]), 'big.yml'), undefined, 'past the manifest size limit');
  });
});
