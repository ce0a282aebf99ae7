/**
 * The relay on the runner socket (SVC_RUNNER_SOCKET): a runner that reaches svc only through the
 * socket (and forwards its jobs' traffic there) gets the same git and tarball answers.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { tempDir } from '../support/services.js';
import { localRunJob, relayHost } from './support.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

function overSocket(socketPath: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(body.length) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A pkt-line (`0000` flush and `0001` delimiter are passed as they are). */
function pkt(line: string): string {
  return line === '0000' || line === '0001' ? line : `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
}

describe('checkout relay: runner socket', () => {
  it('answers the protocol v2 advertisement, ls-refs and the tarball on the socket', async (t) => {
    const socket = join(await tempDir(t), 'runner.sock');
    const h = await relayHost(t, { SVC_RUNNER_SOCKET: socket });
    const job = await localRunJob(t, h);
    const auth = { authorization: `basic ${Buffer.from(`x-access-token:${job.token}`).toString('base64')}`, 'git-protocol': 'version=2' };

    const advertised = await overSocket(socket, 'GET', '/acme/app/info/refs?service=git-upload-pack', auth);
    assert.equal(advertised.status, 200, advertised.body.toString());
    assert.equal(advertised.headers['content-type'], 'application/x-git-upload-pack-advertisement');
    assert.match(advertised.body.toString(), /^000eversion 2\n/, 'v2 has no # service= preamble');
    assert.match(advertised.body.toString(), /ls-refs/);

    const lsRefs = Buffer.from(['command=ls-refs\n', '0001', 'symrefs\n', '0000'].map(pkt).join(''));
    const listed = await overSocket(socket, 'POST', '/acme/app.git/git-upload-pack', { ...auth, 'content-type': 'application/x-git-upload-pack-request' }, lsRefs);
    assert.equal(listed.status, 200, listed.body.toString());
    assert.equal(listed.headers['content-type'], 'application/x-git-upload-pack-result');
    const refs = listed.body.toString();
    assert.ok(refs.includes(`${job.sha} HEAD symref-target:refs/heads/main\n`), refs);
    assert.ok(refs.includes(`${job.sha} refs/heads/main\n`), refs);

    const tarball = await overSocket(socket, 'GET', `/api/v3/repos/acme/app/tarball/${job.sha}`, { authorization: `Bearer ${job.token}` });
    assert.equal(tarball.status, 200);
    assert.ok(gunzipSync(tarball.body).includes(Buffer.from(`acme-app-${job.sha.slice(0, 7)}/app.txt`)), 'the tar holds the prefixed tree');

    const anonymous = await overSocket(socket, 'GET', '/acme/app/info/refs?service=git-upload-pack', {});
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Basic realm="svc"');
  });
});
