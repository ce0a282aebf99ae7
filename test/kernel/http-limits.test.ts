/**
 * What one client may hold of `svc serve` (issue 15, defects 2 and 7): a stranger's large body is
 * refused before it is read, every route's body limit is small unless it is a named upload route,
 * a client that never finishes its headers is cut off, and one address holds a bounded number of
 * connections.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { createHost, createSilentLogger, DEFAULT_BODY_LIMIT, routeTable, type Host } from '../../core/kernel/index.js';
import { listeningRunner } from '../runner-protocol/listener-fixture.js';
import { runnerHost } from '../runner-protocol/runner-host.js';
import { createHostEnv } from '../support/host-env.js';
import { onCleanup } from '../support/services.js';

const RUNNER_PLUGINS = ['engine', 'runner-protocol'];
const ALL_PLUGINS = ['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol', 'runtime-services', 'checkout-relay'];

async function startHost(t: TestContext, plugins: readonly string[], env: Record<string, string> = {}): Promise<{ host: Host; port: number }> {
  const hostEnv = createHostEnv(env);
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins(plugins.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog });
  onCleanup(t, () => host.stop());
  const url = new URL(await host.start());
  return { host, port: Number(url.port) };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

interface Upload {
  /** The status line's code of the server's answer; 0 when the connection was reset before it was read. */
  readonly status: number;
  /** Body bytes the client had handed to its socket when the answer's first byte (or the close) arrived. */
  readonly writtenBeforeAnswer: number;
  readonly declared: number;
}

/**
 * Sends a POST declaring `size` body bytes and writes them 64 KiB at a time (waiting for the
 * socket to drain), stopping as soon as the server answers. A server that reads the whole body
 * before answering is answered only after every byte was written.
 */
async function uploadUntilAnswered(port: number, path: string, size: number, headers: Record<string, string>): Promise<Upload> {
  const socket = await open(port);
  const head = [`POST ${path} HTTP/1.1`, 'host: 127.0.0.1', `content-length: ${size}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  let answer = '';
  let writtenBeforeAnswer = -1;
  let written = 0;
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      if (writtenBeforeAnswer < 0) writtenBeforeAnswer = written;
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) resolve();
    });
    // A server that refuses a body closes the connection; the client's next write may then be
    // reset before the answer is read. Either way the server ended the exchange at that point.
    const ended = () => {
      if (writtenBeforeAnswer < 0) writtenBeforeAnswer = written;
      resolve();
    };
    socket.on('close', ended);
    socket.on('error', ended);
  });
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x7b);
  let done = false;
  void answered.then(() => (done = true));
  while (!done && written < size) {
    const piece = chunk.subarray(0, Math.min(chunk.length, size - written));
    written += piece.length;
    if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    // Lets the answer's data event run between writes.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await answered;
  socket.destroy();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
  return { status, writtenBeforeAnswer: writtenBeforeAnswer < 0 ? written : writtenBeforeAnswer, declared: size };
}

const TEN_MB = 10_000_000;

describe('a stranger’s large body is refused before it is read', () => {
  it('POST /api/v3/actions/runner-registration without a valid credential: 401 while the client is still sending', async (t) => {
    const { port } = await startHost(t, RUNNER_PLUGINS);
    for (const authorization of [undefined, 'RemoteAuth not-the-system-token']) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) };
      const upload = await uploadUntilAnswered(port, '/api/v3/actions/runner-registration', TEN_MB, headers);
      assert.equal(upload.status, 401, `answer to ${authorization ?? 'no credential'}`);
      assert.ok(upload.writtenBeforeAnswer < upload.declared, `answered after all ${upload.declared} bytes were sent: the body was read first`);
    }
  });

  it('POST /_apis/oauth2/token (its credential is in the body): refused by its size, while the client is still sending', async (t) => {
    const { port } = await startHost(t, RUNNER_PLUGINS);
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
      const upload = await uploadUntilAnswered(port, '/_apis/oauth2/token', TEN_MB, { 'content-type': contentType });
      // 413 and a close; a write racing the close may be reset before the 413 is read.
      assert.ok(upload.status === 413 || upload.status === 0, `${contentType}: ${upload.status}`);
      assert.ok(upload.writtenBeforeAnswer < upload.declared, `${contentType}: answered after all ${upload.declared} bytes were sent`);
    }
  });
});

/**
 * Routes that take more than the default, and why. A route reading a stream itself (snapshots,
 * packs, blob and cache uploads) bounds it in its handler; its `bodyLimit` is the server's default.
 */
const LARGE_BODY_ROUTES: Readonly<Record<string, string>> = {
  'POST /api/v1/runs': 'changed_files and an event payload of a large change',
  'POST /api/v1/snapshots/negotiate': 'the tags of a repository with many tags',
  'PATCH /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines/:timelineId/records': 'timeline records (job token)',
  'POST /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines': 'a timeline with its records (job token)',
  'POST /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines/:timelineId/records/:recordId/feed': 'console lines (job token)',
  'POST /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/events': 'JobCompleted with outputs (job token)',
  'POST /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/logs/:logId': 'a log page (job token)',
  'PUT /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines/:timelineId/records/:recordId/attachments/:type/:name':
    'a step summary or attachment (job token)',
  'POST /run-service/completejob': 'the job result with outputs (job token)',
  'POST /twirp/github.actions.results.api.v1.WorkflowStepUpdateService/WorkflowStepsUpdate': 'step records (job token)',
};

describe('route table', () => {
  it('every route reads at most the default body limit, unless it is a named large-body route', async (t) => {
    const { host } = await startHost(t, ALL_PLUGINS);
    const routes = routeTable(host.app);
    assert.ok(routes.length > 50, `only ${routes.length} routes recorded`);
    const withBody = routes.filter((route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method));
    const tooLarge = withBody
      .filter((route) => route.bodyLimit > DEFAULT_BODY_LIMIT)
      .map((route) => `${route.method} ${route.url.replace(/^\/:scopeIdentifier\|:owner\//, '/:scopeIdentifier/')}`);
    // The worker routes are registered under a path with alternatives; compare on one spelling.
    const unlisted = tooLarge.filter((route) => LARGE_BODY_ROUTES[route] === undefined);
    assert.deepEqual(unlisted, [], `routes reading more than ${DEFAULT_BODY_LIMIT} bytes without being listed as large-body routes`);
    for (const route of ['POST /api/v3/actions/runner-registration', 'POST /_apis/oauth2/token', 'POST /api/v3/actions/runners/register']) {
      const entry = withBody.find((candidate) => `${candidate.method} ${candidate.url}` === route);
      assert.ok(entry !== undefined, `${route} is registered`);
      assert.ok(entry.bodyLimit <= DEFAULT_BODY_LIMIT, `${route} reads up to ${entry.bodyLimit} bytes`);
    }
    assert.ok(DEFAULT_BODY_LIMIT <= 64 * 1024, 'the default body limit is kilobytes');
  });
});

/** Resolves when the server closes the socket; rejects after `boundMs` (a generous bound, not a timing). */
function closedWithin(socket: Socket, boundMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${boundMs} ms`)), boundMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('slow clients', () => {
  it('a client that never finishes its headers is cut off at SVC_HTTP_HEADERS_TIMEOUT_SECS', async (t) => {
    const { port } = await startHost(t, ['management-api', 'engine', 'local-runs'], { SVC_HTTP_HEADERS_TIMEOUT_SECS: '1' });
    const socket = await open(port);
    socket.on('error', () => undefined);
    socket.write('GET /readyz HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    // One header byte every 200 ms: never idle, never done.
    const drip = setInterval(() => socket.write('x'), 200);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    try {
      await closedWithin(socket, 15_000);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
    assert.match(answer, /^HTTP\/1\.1 408|^$/, 'a 408 or a plain close');
  });

  it('a request whose body never arrives is cut off at SVC_HTTP_REQUEST_TIMEOUT_SECS', async (t) => {
    const { port } = await startHost(t, ['management-api', 'engine', 'local-runs'], { SVC_HTTP_REQUEST_TIMEOUT_SECS: '2', SVC_HTTP_HEADERS_TIMEOUT_SECS: '1' });
    const socket = await open(port);
    socket.on('error', () => undefined);
    socket.write('POST /api/v1/runs HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{');
    const drip = setInterval(() => socket.write(' '), 200);
    try {
      await closedWithin(socket, 15_000);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });

  it('a runner’s long poll outlasts SVC_HTTP_IDLE_TIMEOUT_SECS: the poll holds its own connection', async (t) => {
    const h = await runnerHost(t, { env: { SVC_HTTP_IDLE_TIMEOUT_SECS: '1' }, plugin: { timings: { pollHoldMs: 3000 } } });
    const listener = await listeningRunner(h, 'idle-01');
    const empty = await listener.poll();
    assert.equal(empty.result.status, 204, 'the hold ended with the empty answer, not a closed connection');
    assert.ok(empty.elapsedMs >= 2500, `held ${empty.elapsedMs.toFixed(0)} ms`);
  });

  it('SVC_MAX_CONNECTIONS_PER_IP: the connection past the cap is closed at once; a freed slot is usable again', async (t) => {
    const cap = 4;
    const { port } = await startHost(t, ['management-api', 'engine', 'local-runs'], { SVC_MAX_CONNECTIONS_PER_IP: String(cap) });
    const held: Socket[] = [];
    try {
      await fillAndFree(port, cap, held);
    } finally {
      held.forEach((socket) => socket.destroy());
    }
  });
});

/** Opens `cap` served connections, checks the next is closed unanswered, frees one and checks a new one is served. */
async function fillAndFree(port: number, cap: number, held: Socket[]): Promise<void> {
  const ask = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let answer = '';
      const onData = (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        if (answer.includes('\r\n\r\n')) {
          socket.off('data', onData);
          resolve(answer);
        }
      };
      socket.on('data', onData);
      socket.once('close', () => resolve(answer));
      socket.write('GET /readyz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    });
  for (let i = 0; i < cap; i++) {
    const socket = await open(port);
    socket.on('error', () => undefined);
    held.push(socket);
    assert.match(await ask(socket), /^HTTP\/1\.1 200/, `connection ${i + 1} of ${cap} is served`);
  }
  const extra = await open(port);
  extra.on('error', () => undefined);
  held.push(extra);
  assert.equal(await ask(extra), '', `connection ${cap + 1} is closed without an answer`);
  assert.ok(extra.destroyed || extra.readableEnded);
  held.shift()?.destroy();
  // The server learns of the close a moment later: try again a few times.
  let answer = '';
  for (let attempt = 0; attempt < 50 && answer === ''; attempt++) {
    const again = await open(port);
    again.on('error', () => undefined);
    held.push(again);
    answer = await ask(again);
    if (answer === '') await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(answer, /^HTTP\/1\.1 200/, 'after one closed, a new connection is served');
}
