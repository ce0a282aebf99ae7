/**
 * The namespace isolation backend against the real kernel (issue 7, part 1): what a guest sees
 * of the host's files, processes and network, the forwarder to the runner socket, slirp4netns,
 * limits, and that stop() leaves nothing behind. Skipped, with the reason printed, only where the
 * kernel refuses namespaces.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { Guest, GuestExit, GuestLaunch } from '../../plugins/vm-pool/backends/isolation-backend.js';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { findTool } from '../../plugins/vm-pool/backends/namespace/host-tools.js';
import { openLifeline, startSlirp } from '../../plugins/vm-pool/backends/namespace/slirp.js';

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };

const probe = await createNamespaceBackend({ logger: silent, dataDir: '/tmp' }).probe();
const skip = probe.ok ? false : `namespace guests unavailable here: ${probe.reason}`;
if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);
const hasSlirp = probe.reason.includes('slirp4netns when enabled');

interface Sandbox {
  readonly dir: string;
  readonly dataDir: string;
  readonly runnerRoot: string;
  launch(program: string, overrides?: Partial<GuestLaunch> & { slirp4netns?: string }): Promise<Running>;
}

interface Running {
  readonly guest: Guest;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

let counter = 0;

/** A temp dir with a data dir and a runner root, removed (guests stopped first) after the test. */
function sandbox(t: TestContext): Sandbox {
  const dir = mkdtempSync('/tmp/svc-ns-test-');
  const dataDir = join(dir, 'data');
  const runnerRoot = join(dataDir, 'runners', 'r1');
  mkdirSync(runnerRoot, { recursive: true });
  const guests: Guest[] = [];
  t.after(async () => {
    await Promise.all(guests.map((guest) => guest.stop(0)));
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    dataDir,
    runnerRoot,
    async launch(program, overrides = {}) {
      const { slirp4netns, ...launchOverrides } = overrides;
      const backend = createNamespaceBackend({ logger: silent, dataDir, ...(slirp4netns === undefined ? {} : { slirp4netns }) });
      let stdout = '';
      let stderr = '';
      counter += 1;
      const guest = await backend.launch({
        guestId: `t${process.pid}-${counter}`,
        command: process.execPath,
        args: ['-e', program],
        env: { PATH: '/usr/bin:/bin', GUEST_MARK: 'yes' },
        runnerRoot,
        mounts: [],
        serverUrl: 'http://127.0.0.1:9',
        runnerSocket: undefined,
        network: false,
        limits: {},
        onOutput: (stream, line) => (stream === 'stdout' ? (stdout += `${line}\n`) : (stderr += `${line}\n`)),
        ...launchOverrides,
      });
      guests.push(guest);
      return { guest, stdout: () => stdout, stderr: () => stderr };
    },
  };
}

/** Runs a guest program to its end and parses the JSON it prints last. */
async function report<T>(box: Sandbox, program: string, overrides?: Partial<GuestLaunch> & { slirp4netns?: string }): Promise<{ result: T; exit: GuestExit }> {
  const running = await box.launch(program, overrides);
  const exit = await running.guest.exited;
  const last = running.stdout().trim().split('\n').at(-1) ?? '';
  assert.ok(last.startsWith('{'), `guest printed no report; stdout: ${running.stdout()} stderr: ${running.stderr()}`);
  return { result: JSON.parse(last) as T, exit };
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** A guest-side snippet: tries a TCP connection, prints JSON {ok, error}. */
const CONNECT = (host: string, port: number) => `
const s = require('node:net').connect(${port}, '${host}');
s.setTimeout(3000, () => { console.log(JSON.stringify({ ok: false, error: 'timeout' })); process.exit(0); });
s.on('connect', () => { console.log(JSON.stringify({ ok: true })); process.exit(0); });
s.on('error', (e) => { console.log(JSON.stringify({ ok: false, error: e.code })); process.exit(0); });`;

describe('namespace backend', { skip }, () => {
  it('probes ok on this host and says what it enforces', () => {
    assert.ok(probe.ok, probe.reason);
    assert.match(probe.reason, /namespaces over a copy-on-write root/);
  });

  it('shows the guest its own root: runner root writable, host files hidden, /usr and /tmp private', async (t) => {
    const box = sandbox(t);
    const hostSecret = mkdtempSync('/tmp/svc-ns-secret-');
    t.after(() => rmSync(hostSecret, { recursive: true, force: true }));
    writeFileSync(join(hostSecret, 'secret.txt'), 'host only');
    mkdirSync(box.dataDir, { recursive: true });
    writeFileSync(join(box.dataDir, 'store.db'), 'host only');
    const usrProbe = `/usr/svc-ns-probe-${process.pid}`;
    const program = `
      const fs = require('node:fs');
      const ls = (p) => { try { return fs.readdirSync(p); } catch (e) { return e.code; } };
      fs.writeFileSync(${JSON.stringify(join(box.runnerRoot, 'from-guest.txt'))}, 'written inside');
      fs.writeFileSync(${JSON.stringify(usrProbe)}, 'layer');
      fs.writeFileSync('/tmp/guest-tmp.txt', 'private');
      console.log(JSON.stringify({
        root: ls('/'), hostRoot: ls('/root'), work: ls('/work'), home: ls('/home'), srv: ls('/srv'), tmp: ls('/tmp'),
        secret: fs.existsSync(${JSON.stringify(join(hostSecret, 'secret.txt'))}),
        dataDir: ls(${JSON.stringify(box.dataDir)}),
        usr: fs.readFileSync(${JSON.stringify(usrProbe)}, 'utf8'),
        shadow: fs.existsSync('/etc/shadow'),
        hosts: fs.readFileSync('/etc/hosts', 'utf8'),
        hostname: require('node:os').hostname(),
        env: process.env, cwd: process.cwd(),
        caps: fs.readFileSync('/proc/self/status', 'utf8').match(/CapEff:\\s*(\\w+)/)[1],
        remount: (() => { try { require('node:child_process').execFileSync('mount', ['-o', 'remount,rw', '/usr'], { stdio: 'pipe' }); return 'remounted'; } catch { return 'refused'; } })(),
      }));`;
    const running = await box.launch(program);
    const guestId = running.guest.guestId;
    await running.guest.exited;
    const result = JSON.parse(running.stdout().trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    assert.equal(readFileSync(join(box.runnerRoot, 'from-guest.txt'), 'utf8'), 'written inside', 'runner root is the host directory, writable');
    assert.deepEqual(result.hostRoot, [], 'host /root is not visible');
    assert.equal(result.work, 'ENOENT', 'host /work is not visible');
    assert.deepEqual(result.home, []);
    assert.equal(result.srv, 'ENOENT');
    assert.equal(result.secret, false, 'a host file outside the guest root is not visible');
    assert.deepEqual(result.dataDir, ['runners'], 'of the data dir, only the path to the runner root');
    assert.deepEqual(result.tmp, ['guest-tmp.txt', basename(box.dir)].sort(), '/tmp holds only what the guest made and its runner root');
    assert.equal(result.usr, 'layer', 'writes to /usr succeed inside');
    assert.equal(existsSync(usrProbe), false, 'and never reach the host /usr');
    assert.equal(existsSync('/tmp/guest-tmp.txt'), false, '/tmp is private');
    assert.equal(result.shadow, false);
    assert.match(String(result.hosts), /^127\.0\.0\.1\tlocalhost svc\.localhost$/m);
    assert.equal(result.hostname, guestId);
    assert.deepEqual(result.env, { PATH: '/usr/bin:/bin', GUEST_MARK: 'yes' }, 'exactly the launch env');
    assert.equal(result.cwd, box.runnerRoot);
    assert.equal(result.caps, '0000000000000000', 'the runner has no capabilities');
    assert.equal(result.remount, 'refused', 'so it cannot make its read-only mounts writable');
  });

  it('shows the launch mounts at their host paths: read-only ones unwritable, writable ones shared with the host', async (t) => {
    const box = sandbox(t);
    const runtimes = join(box.dataDir, 'runtimes', 'node24');
    const toolCache = join(box.dataDir, 'tool-cache');
    mkdirSync(join(runtimes, 'bin'), { recursive: true });
    mkdirSync(toolCache, { recursive: true });
    writeFileSync(join(runtimes, 'bin', 'node'), 'the runtime');
    writeFileSync(join(box.dataDir, 'svc.db'), 'host only');
    const program = `
      const fs = require('node:fs');
      const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({
        runtime: fs.readFileSync(${JSON.stringify(join(runtimes, 'bin', 'node'))}, 'utf8'),
        runtimeWrite: attempt(() => fs.writeFileSync(${JSON.stringify(join(runtimes, 'bin', 'node'))}, 'trojan')),
        cacheWrite: attempt(() => { fs.mkdirSync(${JSON.stringify(join(toolCache, 'tool', '1.0.0', 'x64'))}, { recursive: true }); fs.writeFileSync(${JSON.stringify(join(toolCache, 'tool', '1.0.0', 'x64.complete'))}, ''); }),
        dataDir: fs.readdirSync(${JSON.stringify(box.dataDir)}).sort(),
      }));`;
    const { result } = await report<Record<string, unknown>>(box, program, { mounts: [{ path: runtimes, writable: false }, { path: toolCache, writable: true }] });
    assert.equal(result.runtime, 'the runtime');
    assert.equal(result.runtimeWrite, 'EROFS', 'a job cannot replace the runtime later guests run');
    assert.equal(result.cacheWrite, 'ok');
    assert.ok(existsSync(join(toolCache, 'tool', '1.0.0', 'x64.complete')), 'what a job adds to the tool cache is there for the next guest');
    assert.equal(readFileSync(join(runtimes, 'bin', 'node'), 'utf8'), 'the runtime');
    assert.deepEqual(result.dataDir, ['runners', 'runtimes', 'tool-cache'], 'of the data dir, only the paths to the mounts');
  });

  it('binds the directory of a script argument read-only, hiding the data dir inside it', async (t) => {
    const box = sandbox(t);
    const script = join(box.dir, 'probe.cjs');
    writeFileSync(join(box.dataDir, 'secret.db'), 'host only');
    writeFileSync(script, `const fs = require('node:fs'); let ro; try { fs.writeFileSync(__filename + '.x', ''); ro = false; } catch (e) { ro = e.code; }
      console.log(JSON.stringify({ dir: fs.readdirSync(${JSON.stringify(box.dir)}).sort(), data: fs.readdirSync(${JSON.stringify(box.dataDir)}), ro }));`);
    const running = await box.launch('', { args: [script] });
    await running.guest.exited;
    const result = JSON.parse(running.stdout().trim()) as { dir: string[]; data: string[]; ro: string | false };
    assert.deepEqual(result.dir, ['data', 'probe.cjs']);
    assert.deepEqual(result.data, ['runners'], 'the data dir is masked');
    assert.equal(result.ro, 'EROFS', 'the program directory is read-only');
  });

  it('isolates processes: pid 1 is the guest init, host processes are invisible and unsignalable', async (t) => {
    const box = sandbox(t);
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    t.after(() => sleeper.kill('SIGKILL'));
    const { result } = await report<{ signal: string; pids: number[]; mine: number; pid1: string }>(box, `
      const fs = require('node:fs');
      let signal = 'delivered'; try { process.kill(${sleeper.pid}, 0); } catch (e) { signal = e.code; }
      const pids = fs.readdirSync('/proc').filter((e) => /^\\d+$/.test(e)).map(Number);
      console.log(JSON.stringify({ signal, pids, mine: process.pid, pid1: fs.readFileSync('/proc/1/cmdline', 'utf8').split('\\0')[0] }));`);
    assert.equal(result.signal, 'ESRCH', 'the host sleep does not exist for the guest');
    assert.ok(result.pids.includes(1), 'the guest has its own pid 1');
    assert.deepEqual(result.pids, [1, result.mine], 'only the guest init and the runner in /proc');
    assert.match(result.pid1, /sh$/);
    assert.equal(sleeper.exitCode, null, 'the host process is untouched');
  });

  it('has no network without `network`: a host TCP port is unreachable', async (t) => {
    const box = sandbox(t);
    const server = createServer((socket) => socket.end('host'));
    t.after(() => server.close());
    const port = await listen(server, '127.0.0.1');
    const { result } = await report<{ ok: boolean; error?: string }>(box, CONNECT('127.0.0.1', port));
    assert.equal(result.ok, false);
    assert.equal(result.error, 'ECONNREFUSED', 'the guest loopback is its own');
  });

  it('forwards serverUrl to the runner socket inside the guest', async (t) => {
    const box = sandbox(t);
    const socketDir = mkdtempSync('/tmp/svc-ns-socket-');
    const socket = join(socketDir, 'runner.sock');
    const server = createHttpServer((req, res) => res.end(`socket answered ${req.method} ${req.url} host=${req.headers.host}`));
    t.after(() => {
      server.close();
      rmSync(socketDir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const { result } = await report<{ loopback: string; named: string; socketDir: unknown }>(box, `
      (async () => {
        const loopback = await (await fetch('http://127.0.0.1:8080/_apis/x')).text();
        const named = await (await fetch('http://svc.localhost:8080/y')).text();
        let socketDir; try { socketDir = require('node:fs').readdirSync(${JSON.stringify(socketDir)}); } catch (e) { socketDir = e.code; }
        console.log(JSON.stringify({ loopback, named, socketDir }));
      })();`, { serverUrl: 'http://127.0.0.1:8080', runnerSocket: socket });
    assert.equal(result.loopback, 'socket answered GET /_apis/x host=127.0.0.1:8080');
    assert.equal(result.named, 'socket answered GET /y host=svc.localhost:8080');
    assert.equal(result.socketDir, 'ENOENT', "the socket's directory is not visible");
  });

  it('with `network`, reaches outside through slirp4netns but not the host loopback', { skip: hasSlirp ? false : 'slirp4netns is not installed' }, async (t) => {
    const box = sandbox(t);
    const address = Object.values(networkInterfaces()).flat().find((info) => info !== undefined && info.family === 'IPv4' && !info.internal)?.address;
    if (address === undefined) return t.skip('this host has no non-loopback IPv4 address');
    const server = createServer((socket) => socket.end('host'));
    t.after(() => server.close());
    const port = await listen(server, '0.0.0.0');
    const outside = await report<{ ok: boolean; error?: string }>(box, CONNECT(address, port), { network: true });
    assert.equal(outside.result.ok, true, `reaches ${address}:${port} through slirp4netns: ${outside.result.error}`);
    const loopback = await report<{ ok: boolean }>(box, CONNECT('10.0.2.2', port), { network: true });
    assert.equal(loopback.result.ok, false, 'the host loopback (10.0.2.2) is disabled');
  });

  it('with `network`, slirp4netns lives exactly as long as the guest init: only the init holds its lifeline', { skip: hasSlirp ? false : 'slirp4netns is not installed' }, async (t) => {
    const box = sandbox(t);
    const running = await box.launch(`const fs = require('node:fs'); const links = fs.readdirSync('/proc/self/fd').map((fd) => { try { return fs.readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } }); console.log(JSON.stringify({ lifeline: links.some((link) => link.includes('network-lifeline')) })); setInterval(() => undefined, 1000);`, { network: true });
    while (!running.stdout().includes('lifeline')) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(JSON.parse(running.stdout().trim().split('\n').at(-1) ?? '{}'), { lifeline: false }, 'the runner does not inherit the lifeline');
    const { init } = guestNamespace(running.guest, box.dataDir);
    assert.match(readlinkSync(`/proc/${init}/fd/5`), /network-lifeline/, 'the init holds the write end');
    const slirp = (running.guest.handle as { slirp?: { pid: number } } | undefined)?.slirp?.pid;
    assert.ok(slirp !== undefined, 'the guest handle records slirp4netns');
    assert.match(readlinkSync(`/proc/${slirp}/fd/4`), /network-lifeline/, "slirp4netns's exit fd is the lifeline");
    await running.guest.stop(1000);
  });

  it('slirp4netns exits by itself when its lifeline is dropped (a guest that ends while no server runs)', { skip: hasSlirp ? false : 'slirp4netns is not installed' }, async (t) => {
    const box = sandbox(t);
    // A bare network namespace to attach to, and a holder of the write end that ends after 1 s.
    const target = spawn('unshare', ['--user', '--map-root-user', '--net', 'sleep', '60'], { stdio: 'ignore' });
    t.after(() => void target.kill('SIGKILL'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lifeline = openLifeline(join(box.dir, 'lifeline'));
    const holder = spawn('sleep', ['1'], { stdio: ['ignore', 'ignore', 'ignore', lifeline.writeFd] });
    const started = startSlirp(findTool('slirp4netns') ?? 'slirp4netns', target.pid ?? 0, join(box.dir, 'slirp.log'), lifeline);
    const slirp = await started;
    const pid = slirp.process?.pid;
    assert.ok(pid !== undefined);
    await new Promise((resolve) => holder.once('exit', resolve));
    const deadline = Date.now() + 10_000;
    while (existsSync(`/proc/${pid}`) && readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const alive = existsSync(`/proc/${pid}`) && readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
    await slirp.stop();
    assert.equal(alive, false, 'slirp4netns exited once the only holder of the write end was gone');
  });

  it('refuses `network` without slirp4netns, naming the package', async (t) => {
    const box = sandbox(t);
    await assert.rejects(box.launch('', { network: true, slirp4netns: '/nonexistent/slirp4netns' }), /install the Debian package slirp4netns/);
  });

  it('applies the pids limit where cgroups allow', { skip: /pids not enforced|not enforced \(no writable/.test(probe.reason) ? 'pids not enforced here' : false }, async (t) => {
    const box = sandbox(t);
    const running = await box.launch('', { command: '/bin/sh', args: ['-c', 'for i in $(seq 1 40); do sleep 30 & done'], limits: { pids: 16, memoryBytes: 256 * 1024 * 1024 } });
    await running.guest.exited;
    assert.match(running.stderr(), /fork/i, `forks beyond the limit fail; stderr: ${running.stderr()}`);
  });

  it('stop(): SIGTERM reaches the runner, everything dies, host state and mounts are gone', async (t) => {
    const box = sandbox(t);
    const running = await box.launch(`
      require('node:child_process').spawn('sleep', ['600'], { stdio: 'ignore' });
      process.on('SIGTERM', () => { console.log('runner got SIGTERM'); process.exit(7); });
      console.log('up'); setInterval(() => undefined, 1000);`);
    const { init, namespace, stateDir } = guestNamespace(running.guest, box.dataDir);
    while (!running.stdout().includes('up')) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(existsSync(stateDir));
    const exit = await running.guest.stop(10_000);
    assert.equal(exit.code, 7, 'the runner wound down on SIGTERM');
    assert.match(running.stdout(), /runner got SIGTERM/);
    assertGone(init, namespace, stateDir);
  });

  it('stop(): SIGKILLs a guest that ignores SIGTERM after the grace period', async (t) => {
    const box = sandbox(t);
    const running = await box.launch(`process.on('SIGTERM', () => undefined); console.log('up'); setInterval(() => undefined, 1000);`);
    const { init, namespace, stateDir } = guestNamespace(running.guest, box.dataDir);
    while (!running.stdout().includes('up')) await new Promise((resolve) => setTimeout(resolve, 20));
    const exit = await running.guest.stop(200);
    assert.equal(exit.signal, 'SIGKILL');
    assert.deepEqual(await running.guest.exited, exit);
    assertGone(init, namespace, stateDir);
  });
});

function guestNamespace(guest: Guest, dataDir: string): { init: number; namespace: string; stateDir: string } {
  const init = Number(readFileSync(`/proc/${guest.pid}/task/${guest.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  return { init, namespace: readlinkSync(`/proc/${init}/ns/pid`), stateDir: join(dataDir, 'namespace-guests', guest.guestId) };
}

function assertGone(init: number, namespace: string, stateDir: string): void {
  const survivors = readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readlinkSync(`/proc/${entry}/ns/pid`) === namespace;
    } catch {
      return false;
    }
  });
  assert.deepEqual(survivors, [], 'no process of the guest survives');
  assert.equal(existsSync(`/proc/${init}`), false);
  assert.equal(existsSync(stateDir), false, 'host-side state removed');
  assert.ok(!readFileSync('/proc/self/mountinfo', 'utf8').includes(stateDir), 'no mount left on the host');
}
