import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkerSupply } from './spare-worker.js';
import type { WorkerExit, WorkerProcess } from './worker-process.js';

interface FakeWorker extends WorkerProcess {
  readonly prestarted: boolean;
  killed: boolean;
  die(): void;
}

function supply(enabled = true) {
  const started: FakeWorker[] = [];
  const start = (prestarted: boolean): WorkerProcess => {
    let finish!: (exit: WorkerExit) => void;
    const exited = new Promise<WorkerExit>((resolve) => (finish = resolve));
    let running = true;
    const worker: FakeWorker = {
      pid: started.length + 1,
      prestarted,
      killed: false,
      exited,
      get running() {
        return running;
      },
      output: () => [],
      send: async () => undefined,
      kill: () => {
        worker.killed = true;
        worker.die();
      },
      die: () => {
        running = false;
        finish({ code: null, signal: 'SIGKILL' });
      },
    };
    started.push(worker);
    return worker;
  };
  return { workers: new WorkerSupply(start, enabled), started };
}

describe('WorkerSupply (the spare worker)', () => {
  it('hands over the worker started ahead, and starts at most one spare', () => {
    const { workers, started } = supply();
    workers.prepare();
    workers.prepare();
    assert.equal(started.length, 1);
    assert.equal(started[0]?.prestarted, true);
    assert.equal(workers.take(), started[0]);
    assert.equal(started.length, 1);
  });

  it('starts a worker on demand when there is no spare, or the spare died while idle', async () => {
    const { workers, started } = supply();
    const first = workers.take();
    assert.equal(started.length, 1);
    assert.equal(started[0]?.prestarted, false);
    assert.equal(first, started[0]);

    workers.prepare();
    started[1]?.die();
    const second = workers.take();
    assert.equal(started.length, 3);
    assert.equal(second, started[2]);
    assert.equal(started[2]?.prestarted, false);
    await started[1]?.exited;
  });

  it('does not restart a spare that died while idle before the next job', async () => {
    const { workers, started } = supply();
    workers.prepare();
    started[0]?.die();
    await started[0]?.exited;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(started.length, 1);
    workers.prepare();
    assert.equal(started.length, 2, 'the next prepare (after a job) starts a new one');
  });

  it('kills the spare on close and starts none after it', () => {
    const { workers, started } = supply();
    workers.prepare();
    workers.close();
    assert.equal(started[0]?.killed, true);
    workers.prepare();
    assert.equal(started.length, 1);
  });

  it('starts no spare when turned off (a worker command that cannot wait)', () => {
    const { workers, started } = supply(false);
    workers.prepare();
    assert.equal(started.length, 0);
    workers.take();
    assert.equal(started[0]?.prestarted, false);
  });
});
