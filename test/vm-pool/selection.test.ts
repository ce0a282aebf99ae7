/**
 * Which isolation backend the pool takes (SVC_POOL_BACKEND) and its knobs: an explicit backend
 * that cannot run refuses the start naming the knob; `auto` takes namespace or says why not.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, createSilentLogger, loadConfig } from '../../core/kernel/index.js';
import { selectBackend } from '../../plugins/vm-pool/backends/index.js';
import type { IsolationBackend, IsolationKind } from '../../plugins/vm-pool/index.js';
import { createHostEnv } from '../support/host-env.js';
import { onCleanup } from '../support/services.js';
import { spawnCli } from '../support/spawn-cli.js';
import { api, poolView, serve } from './support.js';

function fake(kind: IsolationKind, ok: boolean, reason: string, noOutboundNetwork?: string): () => Promise<IsolationBackend> {
  const probe = { ok, reason, ...(noOutboundNetwork === undefined ? {} : { noOutboundNetwork }) };
  return async () => ({ kind, probe: async () => probe, launch: async () => assert.fail('not launched in these tests') });
}

const inputs = { runnerSocket: '/tmp/svc-test.sock', dataDir: '/tmp/svc-test-data', logger: createSilentLogger(), network: true };
const NO_SLIRP = 'outbound network for namespace guests needs slirp4netns (apt-get install slirp4netns)';

describe('built-in pool: backend selection', () => {
  it('auto takes namespace when its probe passes, else process with the namespace reason', async () => {
    const usable = await selectBackend({ ...inputs, choice: 'auto', backends: { namespace: fake('namespace', true, 'user namespaces work'), process: fake('process', true, 'no isolation') } });
    assert.equal(usable?.backend.kind, 'namespace');
    assert.equal(usable?.fallback, undefined);

    const refused = await selectBackend({ ...inputs, choice: 'auto', backends: { namespace: fake('namespace', false, 'unprivileged user namespaces are disabled'), process: fake('process', true, 'no isolation') } });
    assert.equal(refused?.backend.kind, 'process');
    assert.equal(refused?.fallback, 'unprivileged user namespaces are disabled');
    assert.match(refused?.reason ?? '', /fell back to process because the namespace backend cannot be used: unprivileged user namespaces are disabled/);

    const missing = await selectBackend({ ...inputs, choice: 'auto', backends: { namespace: async () => 'the namespace backend is not part of this build', process: fake('process', true, 'no isolation') } });
    assert.equal(missing?.fallback, 'the namespace backend is not part of this build', 'a missing module is a failed probe');

    const noSocket = await selectBackend({ ...inputs, runnerSocket: undefined, choice: 'auto', backends: { namespace: fake('namespace', true, 'ok'), process: fake('process', true, 'no isolation') } });
    assert.match(noSocket?.fallback ?? '', /set SVC_RUNNER_SOCKET/);

    const nothing = await selectBackend({ ...inputs, choice: 'auto', backends: { namespace: fake('namespace', false, 'no'), process: fake('process', false, 'not Linux') } });
    assert.equal(nothing, undefined, 'no backend can run: no pool');
    assert.equal(await selectBackend({ ...inputs, choice: 'off' }), undefined);
  });

  it('auto keeps namespace only where its guests can have the outbound network SVC_POOL_NETWORK asks for', async () => {
    const backends = { namespace: fake('namespace', true, 'user namespaces work', NO_SLIRP), process: fake('process', true, 'no isolation') };
    const offline = await selectBackend({ ...inputs, choice: 'auto', backends });
    assert.equal(offline?.backend.kind, 'process', 'jobs keep their network on the process backend');
    assert.equal(offline?.fallback, `${NO_SLIRP}; or set SVC_POOL_NETWORK=off to run guests without outbound network`);
    const asked = await selectBackend({ ...inputs, network: false, choice: 'auto', backends });
    assert.equal(asked?.backend.kind, 'namespace', 'SVC_POOL_NETWORK=off: namespace without slirp4netns is fine');
    assert.equal(asked?.fallback, undefined);
  });

  it('refuses an explicit backend that cannot run, naming the knob and the reason', async () => {
    await assert.rejects(
      selectBackend({ ...inputs, choice: 'namespace', backends: { namespace: fake('namespace', false, 'unprivileged user namespaces are disabled') } }),
      (error: Error) => error instanceof ConfigError && /^SVC_POOL_BACKEND=namespace: .*unprivileged user namespaces are disabled/.test(error.message),
    );
    await assert.rejects(
      selectBackend({ ...inputs, choice: 'namespace', backends: { namespace: fake('namespace', true, 'user namespaces work', NO_SLIRP) } }),
      (error: Error) => error instanceof ConfigError && error.message.startsWith(`SVC_POOL_BACKEND=namespace: the namespace backend cannot run guests on this host: ${NO_SLIRP}; or set SVC_POOL_NETWORK=off`),
    );
    const offline = await selectBackend({ ...inputs, network: false, choice: 'namespace', backends: { namespace: fake('namespace', true, 'user namespaces work', NO_SLIRP) } });
    assert.equal(offline?.backend.kind, 'namespace');
    await assert.rejects(
      selectBackend({ ...inputs, choice: 'microvm', microvm: { qemu: '/nonexistent/qemu-system', kernel: undefined, accel: 'tcg', cpus: 1 } }),
      /^ConfigError: SVC_POOL_BACKEND=microvm: the microvm backend cannot run guests on this host: (SVC_POOL_MICROVM_QEMU=\/nonexistent\/qemu-system is not an executable file|microvm guests need Linux .*)/,
    );
  });

  it('svc serve refuses SVC_POOL_BACKEND=microvm with the reason and the knob', async (t) => {
    const hostEnv = createHostEnv({ SVC_POOL_BACKEND: 'microvm', SVC_POOL_MICROVM_QEMU: '/nonexistent/qemu-system' });
    onCleanup(t, () => hostEnv.cleanup());
    const cli = spawnCli('svc', ['serve'], hostEnv.env);
    const { code } = await cli.exited;
    assert.equal(code, 1, cli.output());
    assert.match(cli.output(), /svc serve: .*SVC_POOL_BACKEND=microvm: the microvm backend cannot run guests on this host: .*(SVC_POOL_MICROVM_QEMU=\/nonexistent\/qemu-system is not an executable file|\/dev\/kvm is missing|microvm guests need Linux)/);
  });

  it('svc serve with auto says which backend it took and why, in the log and in /api/v1/pool', async (t) => {
    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info', SVC_POOL_BACKEND: 'auto', SVC_POOL_WARM: '0' });
    onCleanup(t, () => hostEnv.cleanup());
    const served = await serve(t, {}, hostEnv);
    const pool = await poolView(served.base);
    assert.match(served.cli.output(), /the microvm backend (is not available: |can run here \(choose it with SVC_POOL_BACKEND=microvm\): )/, 'auto logs the microvm probe');
    if (pool.backend === 'namespace') {
      assert.match(pool.reason, /^SVC_POOL_BACKEND=auto picked namespace: /);
    } else {
      assert.equal(pool.backend, 'process');
      assert.match(pool.reason, /^SVC_POOL_BACKEND=auto fell back to process because the namespace backend cannot be used: .+/);
      const status = await api<{ warnings: { code: string; message: string }[] }>(served.base, '/api/v1/status');
      assert.ok(status.warnings.some((warning) => warning.code === 'pool_backend_fallback'), JSON.stringify(status.warnings));
      t.diagnostic(`auto fell back to process: ${pool.reason}`);
    }
    assert.match(served.cli.output(), new RegExp(`built-in pool: ${pool.reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').slice(0, 60)}`));
    assert.match(served.cli.output(), /"runnerSocket":"[^"]+\/runner\.sock"/, 'auto opens the runner socket namespace guests need');
  });
});

describe('built-in pool: knobs', () => {
  const config = (env: Record<string, string>) => loadConfig({ env: { HOME: '/tmp/svc-knobs', ...env }, cwd: '/' }).env;

  it('has defaults for every knob, labels with the host architecture', () => {
    const { pool, runnerSocket } = config({});
    assert.equal(pool.backend, 'auto');
    assert.equal(pool.warm, 2);
    assert.ok(pool.max >= 2);
    assert.equal(pool.stopGraceSecs, 60);
    const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : process.arch;
    assert.deepEqual(pool.labels, ['self-hosted', 'linux', arch, 'ubuntu-latest', 'ubuntu-24.04', 'ubuntu-22.04']);
    if (process.platform === 'linux') assert.equal(runnerSocket, '/tmp/svc-knobs/.local/state/svc/runner.sock', 'auto defaults the runner socket into the data dir');
    assert.equal(config({ SVC_POOL_BACKEND: 'process' }).runnerSocket, undefined, 'process guests use TCP: no socket by default');
    assert.equal(config({ SVC_RUNNER_SOCKET: '/run/svc.sock' }).runnerSocket, '/run/svc.sock');
  });

  it('reads the knobs and names the variable of a bad value', () => {
    const read = config({ SVC_POOL_BACKEND: 'Process', SVC_POOL_WARM: '5', SVC_POOL_MAX: '3', SVC_POOL_LABELS: 'self-hosted, linux ,gpu', SVC_POOL_STOP_GRACE_SECONDS: '2', SVC_POOL_RUNNER_COMMAND: `/opt/svc/bin/svc-runner "--flag with space"` });
    assert.deepEqual([read.pool.backend, read.pool.warm, read.pool.max, read.pool.stopGraceSecs], ['process', 3, 3, 2]);
    assert.deepEqual(read.pool.labels, ['self-hosted', 'linux', 'gpu']);
    assert.deepEqual(read.pool.runnerCommand, ['/opt/svc/bin/svc-runner', '--flag with space']);
    assert.ok(read.warnings.includes('SVC_POOL_WARM=5 is more than SVC_POOL_MAX=3; keeping 3 guests warm'));
    assert.throws(() => config({ SVC_POOL_BACKEND: 'vm' }), /SVC_POOL_BACKEND='vm' is not allowed; use one of: auto, process, namespace, microvm, off/);
    assert.throws(() => config({ SVC_POOL_LABELS: 'linux,,x64' }), /SVC_POOL_LABELS='linux,,x64' has an empty label/);
    assert.throws(() => config({ SVC_POOL_RUNNER_COMMAND: `'/opt/svc-runner` }), /SVC_POOL_RUNNER_COMMAND has an unclosed ' quote/);
    assert.equal(config({}).pool.network, true, 'guests have outbound network by default');
    assert.equal(config({ SVC_POOL_NETWORK: 'off' }).pool.network, false);
    assert.deepEqual(config({}).pool.microvm, { qemu: undefined, kernel: undefined, accel: 'kvm', cpus: availableParallelism() });
    assert.deepEqual(
      config({ SVC_POOL_MICROVM_QEMU: '/opt/qemu/bin/qemu-system-x86_64', SVC_POOL_MICROVM_KERNEL: '/boot/vmlinuz-6.1', SVC_POOL_MICROVM_ACCEL: 'TCG', SVC_POOL_MICROVM_CPUS: '1' }).pool.microvm,
      { qemu: '/opt/qemu/bin/qemu-system-x86_64', kernel: '/boot/vmlinuz-6.1', accel: 'tcg', cpus: 1 },
    );
    assert.equal(config({ SVC_POOL_MICROVM_CPUS: '0' }).pool.microvm.cpus, availableParallelism(), 'below 1: the default, with a warning');
    assert.throws(() => config({ SVC_POOL_MICROVM_KERNEL: 'vmlinuz' }), /SVC_POOL_MICROVM_KERNEL='vmlinuz' must be an absolute path/);
    assert.throws(() => config({ SVC_POOL_MICROVM_ACCEL: 'hvf' }), /SVC_POOL_MICROVM_ACCEL='hvf' is not allowed; use kvm or tcg/);
    if (process.platform === 'linux') assert.equal(config({ SVC_POOL_BACKEND: 'microvm' }).runnerSocket, '/tmp/svc-knobs/.local/state/svc/runner.sock', 'microvm guests need the runner socket too');
    assert.ok(config({ SVC_POOL_MAX: 'many' }).warnings.some((warning) => warning.startsWith("SVC_POOL_MAX='many' is not an integer")));
    assert.equal(config({}).pool.toolCache, undefined, 'the tool cache defaults into the data dir');
    assert.equal(config({ SVC_POOL_TOOL_CACHE: '/srv/tool-cache' }).pool.toolCache, '/srv/tool-cache');
    assert.equal(config({ SVC_POOL_TOOL_CACHE: 'OFF' }).pool.toolCache, 'off');
    assert.throws(() => config({ SVC_POOL_TOOL_CACHE: 'tools' }), /SVC_POOL_TOOL_CACHE='tools' must be an absolute path/);
    assert.equal(config({}).pool.nodeDist, undefined);
    assert.equal(config({ SVC_RUNNER_NODE_DIST: '/srv/node-dist' }).pool.nodeDist, '/srv/node-dist');
    assert.equal(config({ SVC_RUNNER_NODE_DIST: 'https://mirror.example/node/' }).pool.nodeDist, 'https://mirror.example/node/');
    assert.throws(() => config({ SVC_RUNNER_NODE_DIST: 'mirror.example/node' }), /SVC_RUNNER_NODE_DIST='mirror\.example\/node' must be an http\(s\) URL or an absolute directory/);
  });
});
