import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, globalAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { apiRequest, ServerAnswerError, ServerUnreachableError } from './api-request.js';
import type { ServerConnection } from './server-connection.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

const servers: Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** A server on a free local port; each request goes to `handler`. */
async function serve(handler: Handler): Promise<ServerConnection> {
  const server = createServer((request, response) => void handler(request, response));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'tok' };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A promise with its resolver, for steps the two ends take in turn. */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const wait = new Promise<void>((resolve) => (fire = resolve));
  return { wait, fire };
}

describe('apiRequest (node:http transport)', () => {
  it('sends JSON with the token and reads a JSON answer', async () => {
    let seen: Record<string, string | undefined> = {};
    const connection = await serve(async (request, response) => {
      seen = { method: request.method, url: request.url, auth: request.headers.authorization, type: request.headers['content-type'], body: await bodyOf(request) };
      response.writeHead(201, { 'content-type': 'application/json', 'X-Run': '7' }).end('{"runs":[{"run_id":7}]}');
    });
    const response = await apiRequest(connection, 'POST', '/api/v1/runs?x=1', { workflow: 'ci.yml' });
    assert.deepEqual(seen, { method: 'POST', url: '/api/v1/runs?x=1', auth: 'Bearer tok', type: 'application/json', body: '{"workflow":"ci.yml"}' });
    assert.equal(response.status, 201);
    assert.equal(response.headers['x-run'], '7');
    assert.deepEqual(await response.json(), { runs: [{ run_id: 7 }] });
  });

  it('a 204 answer nobody reads still gives its kept-alive socket back (a CLI process can exit)', { timeout: 10_000 }, async () => {
    const connection = await serve((_request, response) => void response.writeHead(204).end());
    const response = await apiRequest(connection, 'PUT', '/api/v1/variables/A', { value: 'x' });
    assert.equal(response.status, 204);
    if (!response.body.readableEnded) await once(response.body, 'end');
    assert.equal(response.body.readableEnded, true, 'the empty body was read to its end');
  });

  it('maps error answers to ServerAnswerError with the server message, code and status', async () => {
    const answers: Record<string, [number, string]> = {
      '/json': [422, '{"message":"not triggered by push","code":"not_triggered"}'],
      '/text': [500, 'it broke\n'],
      '/empty': [404, ''],
      '/auth': [401, '{"message":"bad token","code":"unauthorized"}'],
    };
    const connection = await serve((request, response) => {
      const [status, body] = answers[request.url ?? ''] ?? [500, ''];
      response.writeHead(status).end(body);
    });
    const failure = async (path: string) => {
      const error = await apiRequest(connection, 'GET', path).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ServerAnswerError, `${path}: ${String(error)}`);
      return { message: error.message, status: error.status, code: error.code };
    };
    assert.deepEqual(await failure('/json'), { message: 'not triggered by push (HTTP 422)', status: 422, code: 'not_triggered' });
    assert.deepEqual(await failure('/text'), { message: 'it broke (HTTP 500)', status: 500, code: 'server_error' });
    assert.deepEqual(await failure('/empty'), { message: 'Not Found (HTTP 404)', status: 404, code: 'server_error' });
    assert.deepEqual(await failure('/auth'), { message: 'bad token; check SVC_TOKEN (or SVC_SYSTEM_TOKEN) (HTTP 401)', status: 401, code: 'unauthorized' });
  });

  it('says which address it could not reach', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, 'close');
    const baseUrl = `http://127.0.0.1:${port}`;
    const error = await apiRequest({ baseUrl, token: 't' }, 'GET', '/api/v1/runs/1').then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ServerUnreachableError);
    assert.equal(error.baseUrl, baseUrl);
    assert.equal(error.message, `cannot reach the server at ${baseUrl} (ECONNREFUSED); is \`svc serve\` running there? SVC_URL sets the address`);

    // An https URL for a server that talks plain HTTP: OpenSSL's reason, not a bare EPROTO.
    const plain = await serve((_request, response) => {
      response.end();
    });
    const tlsUrl = plain.baseUrl.replace('http:', 'https:');
    const mismatch = await apiRequest({ baseUrl: tlsUrl, token: 't' }, 'GET', '/').then(() => undefined, (e: unknown) => e);
    assert.ok(mismatch instanceof ServerUnreachableError);
    assert.match(mismatch.message, /^cannot reach the server at https:\/\/127\.0\.0\.1:\d+ \(TLS: wrong version number\)/);
  });

  it('streams a request body as it is written, and leaves the stream to its owner when the server is gone', async () => {
    const firstArrived = signal();
    let received = '';
    let encoding: string | undefined;
    const connection = await serve(async (request, response) => {
      encoding = request.headers['transfer-encoding'];
      for await (const chunk of request) {
        received += (chunk as Buffer).toString('utf8');
        if (received === 'first;') firstArrived.fire();
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: received.length }));
    });
    const body = new PassThrough();
    body.write('first;');
    const answer = apiRequest(connection, 'POST', '/api/v1/snapshots', body, { contentType: 'application/gzip' });
    // The server holds the first chunk before the second is even written: nothing was buffered whole.
    await firstArrived.wait;
    body.end('second');
    assert.deepEqual(await (await answer).json(), { bytes: 'first;second'.length });
    assert.equal(encoding, 'chunked');

    const orphan = new PassThrough();
    const refused = { baseUrl: 'http://127.0.0.1:1', token: 't' };
    await assert.rejects(apiRequest(refused, 'POST', '/api/v1/snapshots', orphan, { contentType: 'application/gzip' }), ServerUnreachableError);
    assert.equal(orphan.destroyed, false);
  });

  it('hands the answer over as it arrives (an NDJSON feed)', async () => {
    const firstRead = signal();
    const connection = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"n":1}\n');
      // The second line only once the client has read the first: the answer was not buffered.
      await firstRead.wait;
      response.end('{"n":2}\n');
    });
    const response = await apiRequest(connection, 'GET', '/api/v1/runs/1/events.ndjson');
    const chunks: string[] = [];
    for await (const chunk of response.body) {
      chunks.push((chunk as Buffer).toString('utf8'));
      firstRead.fire();
    }
    assert.deepEqual(chunks, ['{"n":1}\n', '{"n":2}\n']);
  });

  it('fails a body read when the connection is cut, and ends it on abort with the signal reason', async () => {
    const connection = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"n":1}\n', () => {
        if (request.url === '/cut') response.socket?.destroy();
      });
    });
    const cut = await apiRequest(connection, 'GET', '/cut');
    await assert.rejects(cut.text(), { code: 'ECONNRESET' });

    const abort = new AbortController();
    const stopped = await apiRequest(connection, 'GET', '/open', undefined, { signal: abort.signal });
    const reason = new Error('stop following');
    await assert.rejects(
      (async () => {
        for await (const chunk of stopped.body) {
          assert.equal((chunk as Buffer).toString('utf8'), '{"n":1}\n');
          abort.abort(reason);
        }
      })(),
      (error) => error === reason,
    );
    // Aborted before it starts: the signal's reason, not an unreachable server.
    await assert.rejects(apiRequest(connection, 'GET', '/open', undefined, { signal: abort.signal }), (error) => error === reason);
  });
});

/** A throwaway self-signed certificate for 127.0.0.1, or undefined without the openssl tool. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    if (made.status !== 0) return undefined;
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('apiRequest over https', () => {
  const tls = selfSignedCertificate();
  it('checks the certificate and talks TLS once it is trusted', { skip: tls === undefined ? 'no openssl to make a certificate' : false }, async () => {
    assert.ok(tls);
    const server = createTlsServer(tls, (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const connection = { baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't' };
      const untrusted = await apiRequest(connection, 'GET', '/api/v1/runs/1').then(() => undefined, (e: unknown) => e);
      assert.ok(untrusted instanceof ServerUnreachableError);
      assert.match(untrusted.message, /SELF_SIGNED/);
      // What NODE_EXTRA_CA_CERTS does for a user, done in-process: the global agent trusts it.
      globalAgent.options.ca = tls.cert;
      assert.deepEqual(await (await apiRequest(connection, 'GET', '/api/v1/runs/1')).json(), { ok: true });
    } finally {
      server.close();
    }
  });
});
