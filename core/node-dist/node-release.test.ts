import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { installedNodeRelease, installNodeRelease, nodeArchiveName } from './index.js';

const VERSION = '24.0.1';
const ARCHIVE = nodeArchiveName(VERSION, 'linux', 'x64');

async function tarGz(entries: readonly { name: string; body: string; mode?: number }[]): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  for (const { body, ...header } of entries) tar.entry(header, body);
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** A nodejs.org/dist-shaped directory with one fake release; `sum` overrides the published checksum. */
async function mirror(t: TestContext, options: { sum?: string; entries?: { name: string; body: string; mode?: number }[] } = {}): Promise<{ dist: string; target: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'node-dist-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const release = join(dir, 'dist', `v${VERSION}`);
  mkdirSync(release, { recursive: true });
  const archive = await tarGz(options.entries ?? [{ name: `node-v${VERSION}-linux-x64/bin/node`, body: '#!/bin/sh\necho v24\n', mode: 0o755 }]);
  writeFileSync(join(release, ARCHIVE), archive);
  const sum = options.sum ?? createHash('sha256').update(archive).digest('hex');
  writeFileSync(join(release, 'SHASUMS256.txt'), `${'0'.repeat(64)}  node-v${VERSION}-darwin-arm64.tar.gz\n${sum}  ${ARCHIVE}\n`);
  return { dist: join(dir, 'dist'), target: join(dir, 'runtimes', 'node24') };
}

const linux = { platform: 'linux', arch: 'x64' } as const;

describe('installNodeRelease', () => {
  it('installs a release from a directory mirror, checked against SHASUMS256.txt, and keeps it on the next call', async (t) => {
    const { dist, target } = await mirror(t);
    const lines: string[] = [];
    assert.equal(await installNodeRelease(target, VERSION, { dist, ...linux, report: (line) => lines.push(line) }), 'installed');
    assert.equal(readFileSync(join(target, 'bin', 'node'), 'utf8'), '#!/bin/sh\necho v24\n');
    assert.equal(await installedNodeRelease(target), VERSION);
    assert.equal(await installNodeRelease(target, VERSION, { dist, ...linux }), 'present');
    assert.ok(lines.some((line) => line.includes(`${dist}/v${VERSION}/${ARCHIVE}`)), lines.join('\n'));
    assert.deepEqual(readdirSync(join(target, '..')), ['node24'], 'no partial files are left beside it');
  });

  it('takes a file: URL as well', async (t) => {
    const { dist, target } = await mirror(t);
    assert.equal(await installNodeRelease(target, VERSION, { dist: pathToFileURL(dist).href, ...linux }), 'installed');
    assert.equal(await installedNodeRelease(target), VERSION);
  });

  it('refuses a tarball whose checksum disagrees, and installs nothing', async (t) => {
    const { dist, target } = await mirror(t, { sum: 'a'.repeat(64) });
    await assert.rejects(installNodeRelease(target, VERSION, { dist, ...linux }), /the checksum of .+ is [0-9a-f]{64}, but .+SHASUMS256\.txt says a{64}: the download is corrupt or the source \(SVC_RUNNER_NODE_DIST\) is not a faithful mirror/);
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(join(target, '..')), []);
  });

  it('says what is missing in a directory mirror, and refuses a source that is not one', async (t) => {
    const { dist, target } = await mirror(t);
    await assert.rejects(installNodeRelease(target, '24.9.9', { dist, ...linux }), /cannot download node 24\.9\.9: .+\/v24\.9\.9\/SHASUMS256\.txt does not exist\. Set SVC_RUNNER_NODE_DIST to a directory laid out as https:\/\/nodejs\.org\/dist/);
    await assert.rejects(installNodeRelease(target, VERSION, { dist: 'mirror/dist', ...linux }), /SVC_RUNNER_NODE_DIST='mirror\/dist' is neither an http\(s\) URL nor an absolute directory/);
  });

  it('refuses a release without bin/node', async (t) => {
    const { dist, target } = await mirror(t, { entries: [{ name: `node-v${VERSION}-linux-x64/README.md`, body: 'no binary' }] });
    await assert.rejects(installNodeRelease(target, VERSION, { dist, ...linux }), /has no bin\/node, so .+ is not a mirror of https:\/\/nodejs\.org\/dist/);
    assert.equal(existsSync(target), false);
  });
});
