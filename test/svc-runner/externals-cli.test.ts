/**
 * The JavaScript runtimes of `configure` (SPEC "Command-line client", "Runner root files"): node
 * 20 and 24 at the versions of versions.toml, downloaded from SVC_RUNNER_NODE_DIST as the release
 * tarball, checked against that release's SHASUMS256.txt and unpacked into externals/node20 and
 * externals/node24. The source here is a local server holding tarballs made from this machine's
 * own node binary, so the unpacked runtime can be run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { readVersions } from '../../core/kernel/index.js';
import { onCleanup } from '../support/services.js';
import { runToEnd, svcHost, tempDir } from './listener-harness.js';

const versions = readVersions();
const NODE_ARCH: Readonly<Record<string, string>> = { x64: 'x64', arm64: 'arm64', arm: 'armv7l' };
const archiveName = (version: string) => `node-v${version}-${platform()}-${NODE_ARCH[arch()] ?? arch()}.tar.gz`;

/** A node release tarball: `node-v<ver>-<os>-<arch>/` with bin/node (this machine's), a symlink and a README. */
async function releaseTarball(version: string, node: Buffer): Promise<Buffer> {
  const top = archiveName(version).replace(/\.tar\.gz$/, '');
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  tar.entry({ name: `${top}/`, type: 'directory', mode: 0o755 });
  tar.entry({ name: `${top}/bin/`, type: 'directory', mode: 0o755 });
  tar.entry({ name: `${top}/bin/node`, mode: 0o755 }, node);
  tar.entry({ name: `${top}/bin/nodejs`, type: 'symlink', linkname: 'node' });
  tar.entry({ name: `${top}/README.md`, mode: 0o644 }, `node ${version}\n`);
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks), { level: 1 });
}

interface Dist {
  readonly url: string;
  readonly requests: string[];
}

/** Serves `/dist/v<ver>/<file>` from `files`; everything else is 404. */
async function distServer(t: TestContext, files: ReadonlyMap<string, Buffer | string>): Promise<Dist> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = files.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(t, () => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dist`, requests };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function configureArgs(baseUrl: string, token: string, root: string, extra: readonly string[] = []): string[] {
  return ['configure', '--url', `${baseUrl}/acme/widgets`, '--token', token, '--name', 'with-node', '--runner-root', root, ...extra];
}

describe('svc-runner configure, JavaScript runtimes', () => {
  it('downloads node 20 and 24, checks them against SHASUMS256.txt and unpacks them into externals/', async (t) => {
    const node = readFileSync(process.execPath);
    const files = new Map<string, Buffer | string>();
    for (const version of [versions.node20Version, versions.node24Version]) {
      const tarball = await releaseTarball(version, node);
      files.set(`/dist/v${version}/${archiveName(version)}`, tarball);
      files.set(`/dist/v${version}/SHASUMS256.txt`, `${'0'.repeat(64)}  node-v${version}-win-x64.zip\n${sha256(tarball)}  ${archiveName(version)}\n`);
    }
    const dist = await distServer(t, files);
    const h = await svcHost(t);
    const root = tempDir(t);
    const { code, output } = await runToEnd(t, configureArgs(h.baseUrl, h.systemToken, root), { SVC_RUNNER_NODE_DIST: dist.url }, 120_000);
    assert.equal(code, 0, output);
    assert.match(output, new RegExp(`Downloading node ${versions.node20Version.replace(/\./g, '\\.')} from ${dist.url}`));

    for (const name of ['node20', 'node24']) {
      const bin = join(root, 'externals', name, 'bin', 'node');
      assert.equal(statSync(bin).mode & 0o111, 0o111, `${name}/bin/node is executable`);
      assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), process.version, `${name}/bin/node runs`);
      assert.equal(readlinkSync(join(root, 'externals', name, 'bin', 'nodejs')), 'node', 'symlinks are kept');
    }
    assert.equal(readFileSync(join(root, 'externals', 'node24', 'README.md'), 'utf8'), `node ${versions.node24Version}\n`, 'node24 holds the 24 release');
    assert.ok(existsSync(join(root, '.runner')), 'and the runner is configured');

    // Configured again (--replace), runtimes already at the pinned versions are not fetched again.
    const downloads = dist.requests.length;
    const again = await runToEnd(t, configureArgs(h.baseUrl, h.systemToken, root, ['--replace']), { SVC_RUNNER_NODE_DIST: dist.url }, 60_000);
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /node .+ is already in .+externals\/node20/);
    assert.equal(dist.requests.length, downloads, 'nothing downloaded');
  });

  it('refuses a tarball whose checksum does not match, and registers nothing', async (t) => {
    const tarball = await releaseTarball(versions.node20Version, Buffer.from('#!/bin/sh\necho tampered\n'));
    const dist = await distServer(
      t,
      new Map<string, Buffer | string>([
        [`/dist/v${versions.node20Version}/${archiveName(versions.node20Version)}`, tarball],
        [`/dist/v${versions.node20Version}/SHASUMS256.txt`, `${sha256(Buffer.from('the genuine release'))}  ${archiveName(versions.node20Version)}\n`],
      ]),
    );
    const h = await svcHost(t);
    const root = tempDir(t);
    const { code, output } = await runToEnd(t, configureArgs(h.baseUrl, h.systemToken, root), { SVC_RUNNER_NODE_DIST: dist.url });
    assert.equal(code, 1);
    assert.match(output, /the checksum of .+ is [0-9a-f]{64}, but .+SHASUMS256\.txt says [0-9a-f]{64}: the download is corrupt/);
    assert.equal(existsSync(join(root, 'externals', 'node20')), false, 'nothing unpacked');
    assert.equal(existsSync(join(root, '.runner')), false);
    assert.doesNotMatch(output, /Runner successfully added/, 'nothing registered');
  });

  it('suggests --no-externals when the download source is unreachable', async (t) => {
    const dist = await distServer(t, new Map());
    const h = await svcHost(t);
    const root = tempDir(t);
    const refused = await runToEnd(t, configureArgs(h.baseUrl, h.systemToken, root), { SVC_RUNNER_NODE_DIST: `http://127.0.0.1:${await freePort()}/dist` });
    assert.equal(refused.code, 1);
    assert.match(refused.output, /cannot download node .+: http:\/\/127\.0\.0\.1:\d+\/dist\/v.+\/SHASUMS256\.txt is unreachable \(ECONNREFUSED\)\. Set SVC_RUNNER_NODE_DIST to a reachable mirror of https:\/\/nodejs\.org\/dist, or configure with --no-externals/);

    const missing = await runToEnd(t, configureArgs(h.baseUrl, h.systemToken, root), { SVC_RUNNER_NODE_DIST: dist.url });
    assert.equal(missing.code, 1);
    assert.match(missing.output, /SHASUMS256\.txt answered 404\. .*--no-externals/);
    assert.equal(existsSync(join(root, '.runner')), false);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
