import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { createSilentLogger } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { createPruneWorker } from './prune-worker.js';

/** A store whose prune records the times it was asked about, fails when told to, and can be held. */
function recordingStore(): { store: SnapshotStore; calls: number[]; failNext: () => void; hold: () => () => void } {
  const calls: number[] = [];
  let fail = false;
  let gate: Promise<void> | undefined;
  const unsupported = (): never => {
    throw new Error('not used by the pruner');
  };
  const store: SnapshotStore = {
    async prune(now) {
      calls.push(now);
      await gate;
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      return 0;
    },
    importTar: unsupported,
    negotiate: unsupported,
    importPack: unsupported,
    history: unsupported,
    hasCommit: unsupported,
    readFile: unsupported,
    archive: unsupported,
    repositoryPath: unsupported,
    retain: unsupported,
  };
  return {
    store,
    calls,
    failNext: () => void (fail = true),
    hold: () => {
      let release: () => void = () => undefined;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(5);
  assert.ok(condition(), 'the condition held within a second');
}

describe('snapshot-pruner worker', () => {
  it('prunes at the time the clock says on every tick, and keeps going after a failed pass', async () => {
    const { store, calls, failNext } = recordingStore();
    const clock = new ManualClock();
    const worker = createPruneWorker({ snapshots: store, clock, logger: createSilentLogger(), everyMs: 5 });
    failNext();
    await worker.start();
    await until(() => calls.length >= 3);
    await worker.stop();
    assert.equal(calls[0], clock.now());
    const seen = calls.length;
    await sleep(30);
    assert.equal(calls.length, seen, 'nothing runs after stop');
  });

  it('stop waits for the pass in flight', async () => {
    const { store, calls, hold } = recordingStore();
    const release = hold();
    const worker = createPruneWorker({ snapshots: store, clock: new ManualClock(), logger: createSilentLogger(), everyMs: 1 });
    await worker.start();
    await until(() => calls.length === 1);
    let stopped = false;
    const stopping = Promise.resolve(worker.stop()).then(() => (stopped = true));
    await sleep(20);
    assert.equal(stopped, false, 'still pruning');
    release();
    await stopping;
    assert.equal(calls.length, 1);
  });
});
