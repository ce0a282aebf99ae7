import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { WorkerMessageType, encodeFrame } from '../ipc/index.js';
import { WORKER_CRASH_EXIT_CODE, runWorker } from './index.js';

function worker(stdin: PassThrough, startTimeoutMs = 5_000) {
  const diagnostics: string[] = [];
  const code = runWorker({ stdin, runnerRoot: '/nonexistent', handleSignals: false, startTimeoutMs, diagnostic: (m) => diagnostics.push(m) });
  return { code, diagnostics };
}

describe('the worker channel', () => {
  it('exits as a crash when no job message arrives in time', async () => {
    const { code, diagnostics } = worker(new PassThrough(), 50);
    assert.equal(await code, WORKER_CRASH_EXIT_CODE);
    assert.match(diagnostics.join('\n'), /no job message arrived within/);
  });

  it('exits as a crash when the first message is not a NewJobRequest, or is not a job message', async () => {
    const first = new PassThrough();
    const a = worker(first);
    first.write(encodeFrame({ type: WorkerMessageType.CancelRequest, body: '' }));
    assert.equal(await a.code, WORKER_CRASH_EXIT_CODE);
    assert.match(a.diagnostics.join('\n'), /expected a NewJobRequest first, got message type 2/);

    const second = new PassThrough();
    const b = worker(second);
    second.write(encodeFrame({ type: WorkerMessageType.NewJobRequest, body: '{"plan": {}}' }));
    assert.equal(await b.code, WORKER_CRASH_EXIT_CODE);
    assert.match(b.diagnostics.join('\n'), /\$\.plan\.planId is required/);
  });

  it('exits as a crash when the channel closes first', async () => {
    const stdin = new PassThrough();
    const { code, diagnostics } = worker(stdin);
    stdin.end();
    assert.equal(await code, WORKER_CRASH_EXIT_CODE);
    assert.match(diagnostics.join('\n'), /closed before the job message/);
  });
});
