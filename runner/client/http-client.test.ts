import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { HttpClient } from './http-client.js';
import { RunnerHttpError, RunnerNetworkError, RunnerProtocolError } from './http-error.js';
import { runnerIdentity } from './runner-identity.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A loopback server answering each path as its handler says. */
const routes = new Map<string, Handler>();
let server: Server;
let base: string;
let flaky = 0;

const json = (response: ServerResponse, status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));

routes.set('/echo', (request, body, response) => json(response, 200, { method: request.method, headers: request.headers, body }));
routes.set('/empty', (_request, _body, response) => response.writeHead(200).end());
routes.set('/bom', (_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('\ufeff{"a":1}'));
routes.set('/gzip', (_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: 'ü'.repeat(3) }))));
routes.set('/html', (_request, _body, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
routes.set('/missing', (_request, _body, response) => json(response, 404, { message: 'no such pool', typeKey: 'TaskAgentPoolNotFoundException' }));
routes.set('/flaky', (_request, _body, response) => (++flaky < 2 ? response.writeHead(503).end() : json(response, 200, { attempt: flaky })));
routes.set('/hang', () => undefined);
routes.set('/cut', (_request, _body, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
  response.write('{"partial":');
  setImmediate(() => response.socket?.destroy());
});

before(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => routes.get(new URL(request.url ?? '/', 'http://x').pathname)?.(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = new HttpClient(runnerIdentity('2.337.0', '0.1.0'), 1);

describe('the listener HTTP client (node:http)', () => {
  it("sends the runner's headers and a JSON body, and parses the JSON answer", async () => {
    const answer = await client.call({ method: 'POST', url: `${base}/echo`, json: { runner: 'r1' }, headers: { authorization: 'Bearer t' } });
    const echoed = answer.body as { method: string; headers: Record<string, string>; body: string };
    assert.equal(echoed.method, 'POST');
    assert.equal(echoed.body, '{"runner":"r1"}');
    assert.equal(echoed.headers['content-type'], 'application/json; charset=utf-8; api-version=6.0-preview');
    assert.equal(echoed.headers['content-length'], '15');
    assert.equal(echoed.headers['authorization'], 'Bearer t');
    assert.match(echoed.headers['user-agent'] ?? '', /2\.337\.0/);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('sends a form body', async () => {
    const answer = await client.call({ method: 'POST', url: `${base}/echo`, form: { grant_type: 'client_credentials', a: 'x y' } });
    assert.equal((answer.body as { body: string }).body, 'grant_type=client_credentials&a=x+y');
  });

  it('answers an empty body as undefined, strips a BOM, inflates gzip', async () => {
    assert.equal((await client.call({ method: 'GET', url: `${base}/empty` })).body, undefined);
    assert.deepEqual((await client.call({ method: 'GET', url: `${base}/bom` })).body, { a: 1 });
    assert.deepEqual((await client.call({ method: 'GET', url: `${base}/gzip` })).body, { zipped: 'üüü' });
  });

  it('refuses a 2xx answer that is not JSON; a non-2xx answer is a RunnerHttpError with its body', async () => {
    await assert.rejects(client.call({ method: 'GET', url: `${base}/html` }), (error: unknown) => error instanceof RunnerProtocolError && /not JSON/.test(error.message));
    await assert.rejects(client.call({ method: 'GET', url: `${base}/missing` }), (error: unknown) => error instanceof RunnerHttpError && error.status === 404 && error.isVss('TaskAgentPoolNotFoundException'));
  });

  it('retries 503 when asked to', async () => {
    flaky = 0;
    assert.deepEqual((await client.call({ method: 'GET', url: `${base}/flaky`, attempts: 3 })).body, { attempt: 2 });
  });

  it("rejects with the caller's abort reason, a timeout and a cut connection as network errors", async () => {
    const controller = new AbortController();
    const reason = new Error('status changed');
    const pending = client.send({ method: 'GET', url: `${base}/hang`, signal: controller.signal });
    setImmediate(() => controller.abort(reason));
    await assert.rejects(pending, (error: unknown) => error === reason);
    await assert.rejects(client.send({ method: 'GET', url: `${base}/hang`, timeoutMs: 50 }), (error: unknown) => error instanceof RunnerNetworkError && /timed out after 50 ms/.test(error.message));
    await assert.rejects(client.send({ method: 'GET', url: `${base}/cut` }), (error: unknown) => error instanceof RunnerNetworkError);
    await assert.rejects(client.send({ method: 'GET', url: 'ftp://127.0.0.1/x' }), (error: unknown) => error instanceof RunnerNetworkError && /unsupported protocol/.test(error.message));
  });
});
