/**
 * A namespace guest reaches the real `svc serve` through its runner socket (SVC_RUNNER_SOCKET):
 * the forwarder makes serverUrl answer inside the guest, with the runner surface only.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { createHostEnv } from '../support/host-env.js';
import { spawnCli } from '../support/spawn-cli.js';

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const probe = await createNamespaceBackend({ logger: silent, dataDir: '/tmp' }).probe();
const skip = probe.ok ? false : `namespace guests unavailable here: ${probe.reason}`;
if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);

const GUEST_PROGRAM = `
(async () => {
  const base = process.env.SERVER_URL;
  const get = async (path) => { const res = await fetch(base + path); return { status: res.status, body: await res.text() }; };
  const answers = {
    connectionData: await get('/_apis/connectionData?connectOptions=1&lastChangeId=-1&lastChangeId64=-1'),
    status: await get('/api/v1/status'),
    readyz: await get('/readyz'),
  };
  console.log(JSON.stringify(answers));
})().catch((error) => { console.error(error); process.exit(1); });`;

interface Answer {
  readonly status: number;
  readonly body: string;
}

describe('namespace guest and svc serve', { skip }, () => {
  it('reaches the runner routes of svc serve through the socket, and nothing else', async (t) => {
    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info' });
    const socket = join(hostEnv.dir, 'runner.sock');
    hostEnv.env.SVC_RUNNER_SOCKET = socket;
    hostEnv.writePlugins(['engine', 'runner-protocol', 'blobs', 'management-api'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
    const serve = spawnCli('svc', ['serve'], hostEnv.env);
    const box = mkdtempSync('/tmp/svc-ns-serve-');
    t.after(async () => {
      serve.child.kill('SIGKILL');
      await serve.exited;
      hostEnv.cleanup();
      rmSync(box, { recursive: true, force: true });
    });
    await serve.waitFor(/svc is ready/);
    const port = /"listen":"127\.0\.0\.1:(\d+)"/.exec(serve.output())?.[1];
    assert.ok(port !== undefined, serve.output());
    const serverUrl = `http://127.0.0.1:${port}`;

    const runnerRoot = join(box, 'data', 'runner');
    mkdirSync(runnerRoot, { recursive: true });
    let stdout = '';
    let stderr = '';
    const guest = await createNamespaceBackend({ logger: silent, dataDir: join(box, 'data') }).launch({
      guestId: `serve-${process.pid}`,
      command: process.execPath,
      args: ['-e', GUEST_PROGRAM],
      env: { PATH: '/usr/bin:/bin', SERVER_URL: serverUrl },
      runnerRoot,
      mounts: [],
      serverUrl,
      runnerSocket: socket,
      network: false,
      limits: {},
      onOutput: (stream, line) => (stream === 'stdout' ? (stdout += line) : (stderr += `${line}\n`)),
    });
    t.after(() => guest.stop(0));
    const exit = await guest.exited;
    assert.equal(exit.code, 0, stderr);
    const answers = JSON.parse(stdout) as Record<'connectionData' | 'status' | 'readyz', Answer>;
    assert.equal(answers.connectionData.status, 200, answers.connectionData.body);
    assert.ok(answers.connectionData.body.includes(`${serverUrl}/`), 'the location service answered, naming the TCP listener');
    assert.equal(answers.status.status, 404, 'the operator API is not on the runner socket');
    assert.equal(answers.readyz.status, 404, 'nor are the health routes');
  });
});
