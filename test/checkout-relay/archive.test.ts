/**
 * actions/checkout's REST path (src/github-api-helper.ts `downloadArchive`): the real octokit of
 * @actions/github at `github.api_url` downloads the tarball of the run's sha, which the tar
 * binary extracts (as @actions/tool-cache does) into one `<owner>-<repo>-<short sha>` directory.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { getOctokit } from '@actions/github';
import { tempDir } from '../support/services.js';
import { localRunJob, relayHost, TREE } from './support.js';

const execFileAsync = promisify(execFile);

describe('checkout relay: tarball and zipball', () => {
  it("octokit's downloadTarballArchive gets the snapshot under GitHub's top-level directory", async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    assert.equal(job.apiUrl, `${h.baseUrl}/api/v3`);
    const octokit = getOctokit(job.token, { baseUrl: job.apiUrl });
    const response = await octokit.rest.repos.downloadTarballArchive({ owner: 'acme', repo: 'app', ref: job.sha });
    assert.equal(response.status, 200);
    const archive = Buffer.from(response.data as ArrayBuffer);

    const dir = await tempDir(t);
    await writeFile(join(dir, 'archive.tar.gz'), archive);
    const into = join(dir, 'out');
    await execFileAsync('mkdir', [into]);
    await execFileAsync('tar', ['xz', '-f', join(dir, 'archive.tar.gz'), '-C', into]);
    const top = await readdir(into);
    assert.deepEqual(top, [`acme-app-${job.sha.slice(0, 7)}`]);
    for (const [path, content] of Object.entries(TREE)) assert.equal(await readFile(join(into, top[0] ?? '', path), 'utf8'), content, path);
  });

  it('answers for the run ref and its short names; another ref is a 404; zipball is a zip of the same tree', async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const auth = { authorization: `token ${job.token}` };
    const base = `${job.apiUrl}/repos/acme/app`;
    for (const ref of ['refs/heads/main', 'heads%2Fmain', 'main', job.sha.slice(0, 7).toUpperCase(), '']) {
      const response = await fetch(`${base}/tarball${ref === '' ? '' : `/${ref}`}`, { headers: auth });
      assert.equal(response.status, 200, `tarball of '${ref}'`);
      assert.equal(response.headers.get('content-type'), 'application/x-gzip');
      assert.equal(response.headers.get('content-disposition'), `attachment; filename=acme-app-${job.sha.slice(0, 7)}.tar.gz`);
      await response.arrayBuffer();
    }
    const other = await fetch(`${base}/tarball/develop`, { headers: auth });
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { code: string }).code, 'ref_not_found');
    const otherRepo = await fetch(`${job.apiUrl}/repos/acme/other/tarball/${job.sha}`, { headers: auth });
    assert.equal(otherRepo.status, 404);
    const anonymous = await fetch(`${base}/tarball/${job.sha}`);
    assert.equal(anonymous.status, 401);

    const zip = await fetch(`${base}/zipball/${job.sha}`, { headers: auth });
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    const entries = zipEntries(Buffer.from(await zip.arrayBuffer()));
    const prefix = `acme-app-${job.sha.slice(0, 7)}/`;
    for (const [path, content] of Object.entries(TREE)) assert.equal(entries.get(prefix + path), content, path);
  });
});

/** The regular files of a zip (stored or deflated), by name: read from its central directory. */
function zipEntries(zip: Buffer): Map<string, string> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip has an end-of-central-directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
  }
  return files;
}
