import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger } from '../../core/kernel/index.js';
import { createPoolManager, type PoolManager, type PoolStatus } from '../../plugins/vm-pool/index.js';
import { onCleanup, tempDir } from '../support/services.js';
import { MemoryPool, type MemoryGuest } from './memory-backend.js';

const phases = (status: PoolStatus) => status.guests.map((guest) => guest.phase).sort();

async function pool(t: TestContext, settings: { warm: number; max: number; backoff?: { initialMs: number; maxMs: number } }): Promise<{ memory: MemoryPool; manager: PoolManager }> {
  const memory = new MemoryPool();
  const manager = createPoolManager({
    backend: memory.backend(),
    provisioning: memory,
    logger: createSilentLogger(),
    rootDir: await tempDir(t),
    warm: settings.warm,
    max: settings.max,
    labels: ['self-hosted', 'linux'],
    stopGraceMs: 1234,
    runner: { command: process.execPath, args: ['svc-runner.js'] },
    serverUrl: () => 'http://127.0.0.1:9',
    runnerSocket: undefined,
    pollMs: 5,
    backoff: settings.backoff ?? { initialMs: 5, maxMs: 20 },
  });
  onCleanup(t, () => manager.stop());
  return { memory, manager };
}

/** The n-th guest launched, once it is. */
async function guest(memory: MemoryPool, manager: PoolManager, index: number): Promise<MemoryGuest> {
  await manager.until((status) => status.launched > index && memory.guests.length > index);
  const found = memory.guests[index];
  assert.ok(found);
  return found;
}

describe('built-in pool manager', () => {
  it('keeps the warm guests ready, replaces a guest that takes a job, and never passes the maximum', async (t) => {
    const { memory, manager } = await pool(t, { warm: 2, max: 3 });
    manager.start();
    const [a, b] = [await guest(memory, manager, 0), await guest(memory, manager, 1)];
    assert.deepEqual(a.spec.args.slice(1), ['run', '--once', '--runner-root', a.spec.runnerRoot], 'no JIT config (a private key) on the command line');
    assert.equal(a.spec.env['ACTIONS_RUNNER_INPUT_JITCONFIG'], `jit-${a.runnerId}`);
    assert.equal(a.spec.env['HOME'], `${a.spec.runnerRoot}/home`);
    assert.equal(a.spec.env['SVC_SYSTEM_TOKEN'], undefined, 'nothing of the server environment leaks into a guest');
    memory.connect(a);
    memory.connect(b);
    await manager.until((status) => phases(status).join() === 'idle,idle');
    assert.equal(manager.status().launched, 2, 'two warm guests, no more');

    memory.takeJob(a);
    const c = await guest(memory, manager, 2);
    await manager.until((status) => status.jobsTaken === 1);
    assert.deepEqual(phases(manager.status()), ['busy', 'idle', 'starting'], 'a replacement is launched as soon as a guest takes a job');

    memory.connect(c);
    memory.takeJob(b);
    await manager.until((status) => status.jobsTaken === 2 && phases(status).join() === 'busy,busy,idle');
    assert.equal(manager.status().launched, 3, 'at most SVC_POOL_MAX guests: no fourth while three run');

    const aRoot = a.spec.runnerRoot;
    a.exit(0);
    await guest(memory, manager, 3);
    await manager.until((status) => status.exited === 1);
    assert.ok(!existsSync(aRoot), 'the exited guest’s root is deleted');
    assert.ok(memory.removed.includes(a.runnerId), 'and its registration removed');
    assert.equal(manager.status().consecutiveFailures, 0, 'a guest that ran a job is no failure');
    assert.equal(new Set(memory.guests.map((g) => g.spec.guestId)).size, 4, 'every guest has its own id (and runner name)');
  });

  it('counts a guest that ran a job too quickly to be seen busy as a job, not a failure', async (t) => {
    const { memory, manager } = await pool(t, { warm: 1, max: 2 });
    manager.start();
    const a = await guest(memory, manager, 0);
    memory.takeJob(a);
    a.exit(0);
    await manager.until((status) => status.exited === 1);
    assert.equal(manager.status().consecutiveFailures, 0);
    assert.equal(manager.status().jobsTaken, 1, 'the job is counted');
    assert.deepEqual(memory.removed, [a.runnerId]);
  });

  it('backs off exponentially while guests die before taking a job, one guest at a time, and recovers', async (t) => {
    const { memory, manager } = await pool(t, { warm: 2, max: 4, backoff: { initialMs: 5, maxMs: 20 } });
    memory.crashOnLaunch = true;
    manager.start();
    const looping = await manager.until((status) => status.consecutiveFailures >= 4);
    assert.match(looping.lastFailure ?? '', /exited \(code 1, signal null\) before taking a job/);
    assert.ok(looping.guests.length <= 1, `backing off launches one guest at a time: ${JSON.stringify(looping.guests)}`);
    assert.ok(looping.retryAt !== undefined);
    assert.equal(memory.registrations.size, looping.guests.length, 'the registrations of dead guests are removed');

    memory.crashOnLaunch = false;
    const next = memory.guests.length;
    const recovered = await guest(memory, manager, next);
    memory.connect(recovered);
    await manager.until((status) => status.consecutiveFailures === 0 && status.guests.length === 2);
    assert.equal(manager.status().lastFailure, undefined);
  });

  it('counts a launch that fails as a failure and says why', async (t) => {
    const { memory, manager } = await pool(t, { warm: 1, max: 1 });
    memory.launchError = 'no such program';
    manager.start();
    const status = await manager.until((s) => s.consecutiveFailures >= 2);
    assert.match(status.lastFailure ?? '', /could not be launched: no such program/);
    assert.equal(memory.registrations.size, 0, 'the registration made for it is removed');
  });

  it('stops every guest with the grace, removes their registrations and roots, and launches nothing after', async (t) => {
    const { memory, manager } = await pool(t, { warm: 2, max: 2 });
    manager.start();
    const [a, b] = [await guest(memory, manager, 0), await guest(memory, manager, 1)];
    memory.connect(a);
    memory.takeJob(b);
    await manager.until((status) => phases(status).join() === 'busy,idle');
    await manager.stop();
    assert.deepEqual([a.stoppedWith, b.stoppedWith], [1234, 1234]);
    assert.equal(memory.registrations.size, 0);
    assert.ok(!existsSync(a.spec.runnerRoot) && !existsSync(b.spec.runnerRoot));
    assert.equal(manager.status().state, 'stopped');
    assert.equal(memory.guests.length, 2, 'no guest launched while stopping');
  });
});
