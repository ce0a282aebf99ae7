/**
 * The microvm isolation backend with real qemu guests: what a guest sees of the host's files and
 * network, the runner-socket forward, the exit status, SIGTERM at stop and the kill after the
 * grace. Two guests (network off and on) run side by side and answer every question in one go,
 * because a guest boot is the expensive part. Where KVM cannot boot the guest kernel (no
 * /dev/kvm, or a PVM-only KVM), the guests are emulated (SVC_POOL_MICROVM_ACCEL=tcg); skipped,
 * with the reason printed, only where neither can run.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Guest, GuestExit } from '../../plugins/vm-pool/backends/isolation-backend.js';
import { createMicrovmBackend } from '../../plugins/vm-pool/backends/microvm/index.js';

const dir = mkdtempSync('/tmp/svc-mv-test-');
const dataDir = join(dir, 'data');
const kvmProbe = await createMicrovmBackend({ dataDir }).probe();
const tcgProbe = kvmProbe.ok ? kvmProbe : await createMicrovmBackend({ dataDir, accel: 'tcg' }).probe();
const accel = kvmProbe.ok ? 'kvm' : 'tcg';
const skip = tcgProbe.ok ? false : `microvm guests cannot run here: ${kvmProbe.reason}`;
if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);
else if (!kvmProbe.ok) process.stderr.write(`\n!! KVM cannot run these guests (${kvmProbe.reason}); they run emulated (TCG)\n\n`);

interface Report {
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly fromHost: string;
  readonly secret: boolean;
  readonly dataDir: string[] | string;
  readonly launchFile: boolean;
  readonly usrWrite: string;
  readonly hostLoopback: string;
  readonly gatewayLoopback: string;
  readonly forward: string;
}

/** The guest program: answers everything as one JSON line (and into report.json), then exits 7 or waits for SIGTERM. */
const program = (o: { root: string; secret: string; hostPort: number; serverPort: number; waitForTerm: boolean }) => `
const fs = require('node:fs');
const net = require('node:net');
const connect = (host, port) => new Promise((resolve) => {
  const s = net.connect(port, host);
  s.setTimeout(4000, () => { s.destroy(); resolve('timeout'); });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', (e) => resolve(e.code));
});
const ls = (p) => { try { return fs.readdirSync(p); } catch (e) { return e.code; } };
(async () => {
  fs.writeFileSync(${JSON.stringify(join(o.root, 'from-guest.txt'))}, 'written inside');
  let usrWrite = 'refused';
  try { fs.writeFileSync('/usr/svc-microvm-probe', 'x'); usrWrite = 'layer'; } catch (e) { usrWrite = e.code; }
  const [hostLoopback, gatewayLoopback, forward] = await Promise.all([
    connect('127.0.0.1', ${o.hostPort}),
    connect('10.0.2.2', ${o.hostPort}),
    fetch('http://127.0.0.1:${o.serverPort}/hello').then((r) => r.text(), (e) => 'failed: ' + e.message),
  ]);
  const report = {
    env: process.env, cwd: process.cwd(),
    fromHost: fs.readFileSync(${JSON.stringify(join(o.root, 'from-host.txt'))}, 'utf8'),
    secret: fs.existsSync(${JSON.stringify(o.secret)}),
    dataDir: ls(${JSON.stringify(dataDir)}),
    launchFile: fs.existsSync(${JSON.stringify(join(o.root, '.svc-microvm-launch'))}),
    usrWrite, hostLoopback, gatewayLoopback, forward,
  };
  console.log(JSON.stringify(report));
  if (${o.waitForTerm}) process.on('SIGTERM', () => fs.writeFileSync(${JSON.stringify(join(o.root, 'term.txt'))}, 'got SIGTERM'));
  // Renamed into place: the host polls for it and must never read it half-written.
  fs.writeFileSync(${JSON.stringify(join(o.root, 'report.partial'))}, JSON.stringify(report));
  fs.renameSync(${JSON.stringify(join(o.root, 'report.partial'))}, ${JSON.stringify(join(o.root, 'report.json'))});
  if (!${o.waitForTerm}) process.exit(7);
  setInterval(() => undefined, 1000);
})();`;

function listen(server: Server, where: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise((resolve) => server.listen(where, () => resolve()));
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('microvm backend', { skip }, () => {
  const hostService = createServer((socket) => socket.end('host loopback service\n'));
  const runnerApi = createHttpServer((request, response) => response.end(`runner socket answered ${request.url ?? ''}`));
  const socket = join(dir, 'runner.sock');
  const secretDir = mkdtempSync('/tmp/svc-mv-secret-');
  const secret = join(secretDir, 'secret.txt');
  const guests: Guest[] = [];
  const output = new Map<string, string>();
  let hostPort = 0;
  let isolated: { guest: Guest; root: string; exit: Promise<GuestExit> };
  let networked: { guest: Guest; root: string };

  before(async () => {
    writeFileSync(secret, 'host only');
    await listen(hostService, { port: 0, host: '127.0.0.1' });
    hostPort = (hostService.address() as AddressInfo).port;
    await listen(runnerApi, { path: socket });
    const backend = createMicrovmBackend({ dataDir, accel, cpus: 1 });
    const launch = async (guestId: string, network: boolean) => {
      const root = join(dataDir, 'pool', guestId);
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, 'from-host.txt'), 'written outside');
      output.set(guestId, '');
      const guest = await backend.launch({
        guestId,
        command: process.execPath,
        args: ['-e', program({ root, secret, hostPort, serverPort: 9090, waitForTerm: network })],
        env: { PATH: '/usr/bin:/bin', GUEST_MARK: 'yes' },
        runnerRoot: root,
        mounts: [],
        serverUrl: 'http://127.0.0.1:9090',
        runnerSocket: socket,
        network,
        limits: { memoryBytes: 1024 * 2 ** 20 },
        onOutput: (_stream, line) => output.set(guestId, `${output.get(guestId) ?? ''}${line}\n`),
      });
      guests.push(guest);
      return { guest, root };
    };
    const [first, second] = await Promise.all([launch('mv-isolated', false), launch('mv-networked', true)]);
    isolated = { ...first, exit: first.guest.exited };
    networked = second;
  });

  after(async () => {
    await Promise.all(guests.map((guest) => guest.stop(0)));
    hostService.close();
    runnerApi.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(secretDir, { recursive: true, force: true });
  });

  it('probes ok and says how guests run', () => {
    assert.ok(tcgProbe.ok, tcgProbe.reason);
    assert.match(tcgProbe.reason, /virtual machines .*kernel .*read-only shares/);
  });

  it('runs the command with exactly the launch env, returns its exit code, shares the runner root read-write at its path', async () => {
    const exit = await isolated.exit;
    const report = JSON.parse(readFileSync(join(isolated.root, 'report.json'), 'utf8')) as Report;
    assert.deepEqual(exit, { code: 7, signal: null }, output.get('mv-isolated'));
    assert.deepEqual(report.env, { PATH: '/usr/bin:/bin', GUEST_MARK: 'yes' }, 'exactly the launch env');
    assert.equal(report.cwd, isolated.root);
    assert.equal(report.fromHost, 'written outside');
    assert.equal(readFileSync(join(isolated.root, 'from-guest.txt'), 'utf8'), 'written inside');
    assert.equal(report.launchFile, false, 'the launch file (JIT config) is gone once read');
    assert.equal(existsSync(join(isolated.root, '.svc-microvm-launch')), false);
    assert.match(output.get('mv-isolated') ?? '', /"GUEST_MARK":"yes"/, 'console output reaches onOutput');
    assert.doesNotMatch(output.get('mv-isolated') ?? '', /svc-guest-(ready|exit)/, 'the init markers are not output');
    assert.equal(existsSync(join(dataDir, 'microvm-guests', 'mv-isolated')), false, 'host-side state removed');
  });

  it('hides host files outside the shared set and keeps /usr writes in the guest', async () => {
    await isolated.exit;
    const report = JSON.parse(readFileSync(join(isolated.root, 'report.json'), 'utf8')) as Report;
    assert.equal(report.secret, false, 'a host file in a temp dir is invisible');
    assert.deepEqual(report.dataDir, ['pool'], 'of the data dir, only the path to the runner root');
    assert.equal(report.usrWrite, 'layer');
    assert.equal(existsSync('/usr/svc-microvm-probe'), false, 'writes to /usr never reach the host');
  });

  it('reaches the runner socket but never the host loopback, with network off and on', async () => {
    await isolated.exit;
    const off = JSON.parse(readFileSync(join(isolated.root, 'report.json'), 'utf8')) as Report;
    const on = await until('the networked guest report', () => (existsSync(join(networked.root, 'report.json')) ? (JSON.parse(readFileSync(join(networked.root, 'report.json'), 'utf8')) as Report) : undefined), 60_000);
    for (const [name, report] of [['network off', off], ['network on', on]] as const) {
      assert.equal(report.forward, 'runner socket answered /hello', `${name}: the server URL answers through the runner socket`);
      assert.notEqual(report.hostLoopback, 'connected', `${name}: 127.0.0.1:${hostPort} is the guest's own loopback`);
      assert.notEqual(report.gatewayLoopback, 'connected', `${name}: the host loopback is unreachable through 10.0.2.2`);
    }
  });

  it('stop() delivers SIGTERM to the runner and kills the guest after the grace', async () => {
    await until('the networked guest report', () => (existsSync(join(networked.root, 'report.json')) ? true : undefined), 60_000);
    const exit = await networked.guest.stop(3000);
    assert.equal(readFileSync(join(networked.root, 'term.txt'), 'utf8'), 'got SIGTERM');
    assert.deepEqual(exit, { code: null, signal: 'SIGKILL' }, 'the runner ignored SIGTERM: killed after the grace');
    assert.throws(() => process.kill(networked.guest.pid ?? 0, 0), 'qemu is gone');
    assert.equal(existsSync(join(dataDir, 'microvm-guests', 'mv-networked')), false, 'host-side state removed');
  });
});
