import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { unpackTarGz } from './tar-unpack.js';

async function archive(t: TestContext, entries: readonly (Partial<Header> & { name: string; body?: string })[]): Promise<{ file: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tar-unpack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  for (const { body, ...header } of entries) tar.entry(header, body ?? '');
  tar.finalize();
  await ended;
  const file = join(dir, 'a.tar.gz');
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
  return { file, dir: join(dir, 'out') };
}

describe('unpackTarGz', () => {
  it('drops the top folder and keeps modes and inner symlinks', async (t) => {
    const { file, dir } = await archive(t, [
      { name: 'node-v1/bin/node', mode: 0o755, body: 'binary' },
      { name: 'node-v1/bin/nodejs', type: 'symlink', linkname: 'node' },
      { name: 'node-v1/LICENSE', mode: 0o644, body: 'MIT' },
    ]);
    await unpackTarGz(file, dir);
    assert.equal(readFileSync(join(dir, 'bin', 'node'), 'utf8'), 'binary');
    assert.equal(statSync(join(dir, 'bin', 'node')).mode & 0o777, 0o755);
    assert.equal(readFileSync(join(dir, 'bin', 'nodejs'), 'utf8'), 'binary');
    assert.equal(readFileSync(join(dir, 'LICENSE'), 'utf8'), 'MIT');
  });

  it('refuses paths and symlinks that leave the folder', async (t) => {
    const dotdot = await archive(t, [{ name: 'top/../../escaped', body: 'x' }]);
    await assert.rejects(unpackTarGz(dotdot.file, dotdot.dir), /unsafe path: top\/\.\.\/\.\.\/escaped/);
    const link = await archive(t, [{ name: 'top/bin/evil', type: 'symlink', linkname: '../../../etc/passwd' }]);
    await assert.rejects(unpackTarGz(link.file, link.dir), /symlink top\/bin\/evil points outside it/);
    const absolute = await archive(t, [{ name: 'top/bin/evil', type: 'symlink', linkname: '/etc/passwd' }]);
    await assert.rejects(unpackTarGz(absolute.file, absolute.dir), /points outside it/);
    assert.equal(existsSync(join(link.dir, 'bin', 'evil')), false);
  });
});
