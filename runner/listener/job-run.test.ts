import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskResultName } from '../../core/protocol/index.js';
import { WorkerMessageType, type WorkerMessage } from '../ipc/index.js';
import type { JobMessage } from './job-message.js';
import { JobRun } from './job-run.js';
import type { JobServices } from './job-reporting.js';
import { DEFAULT_TIMINGS, type ListenerTimings } from './timings.js';
import type { WorkerExit, WorkerProcess } from './worker-process.js';

const timings: ListenerTimings = {
  ...DEFAULT_TIMINGS,
  renewIntervalMs: 20,
  firstRenewBackoffMs: [1, 2],
  renewBackoffMs: [1, 2],
  renewBackoffLongMs: [1, 2],
  stopGraceMs: 50,
  cancelMinimumMs: 80,
  cancelKillMarginMs: 30,
  finishRetryMs: 1,
};

function job(overrides: Partial<JobMessage> = {}): JobMessage {
  return {
    text: '{"jobId":"j"}',
    messageType: 'PipelineAgentJobRequest',
    jobId: '11111111-1111-1111-1111-111111111111',
    jobDisplayName: 'build',
    requestId: 7,
    planId: '22222222-2222-2222-2222-222222222222',
    planVersion: 12,
    systemUrl: 'http://server/',
    jobToken: 'token',
    orchestrationId: undefined,
    billingOwnerId: undefined,
    runService: false,
    ...overrides,
  };
}

/** A worker that exits with `code` when told (or on its own after `exitAfterMs`), and records what it was sent. */
function fakeWorker(behaviour: { exitOnJob?: number; exitOnControl?: number; killedOnJob?: NodeJS.Signals }) {
  const sent: WorkerMessage[] = [];
  let finish!: (exit: WorkerExit) => void;
  const exited = new Promise<WorkerExit>((resolve) => (finish = resolve));
  let killed = false;
  let over = false;
  void exited.then(() => (over = true));
  const worker: WorkerProcess = {
    pid: 1,
    exited,
    get running() {
      return !over;
    },
    output: () => ['worker line'],
    send: async (message) => {
      sent.push(message);
      if (message.type === WorkerMessageType.NewJobRequest && behaviour.exitOnJob !== undefined) setTimeout(() => finish({ code: behaviour.exitOnJob ?? null, signal: null }), 5);
      if (message.type === WorkerMessageType.NewJobRequest && behaviour.killedOnJob !== undefined) setTimeout(() => finish({ code: null, signal: behaviour.killedOnJob ?? null }), 5);
      if (message.type !== WorkerMessageType.NewJobRequest && behaviour.exitOnControl !== undefined) setTimeout(() => finish({ code: behaviour.exitOnControl ?? null, signal: null }), 5);
    },
    kill: () => {
      killed = true;
      finish({ code: null, signal: 'SIGKILL' });
    },
  };
  return { worker, sent, killed: () => killed };
}

function services(options: { failRenewals?: boolean } = {}) {
  const reports: { result: TaskResultName; output: readonly string[] | undefined; reason?: string }[] = [];
  let renewals = 0;
  const value: JobServices = {
    lock: {
      renew: async () => {
        renewals += 1;
        if (options.failRenewals) throw new Error('renewal refused');
        return Date.now() + 600_000;
      },
      isFinal: () => false,
    },
    reporter: { report: async (result, output, reason) => void reports.push({ result, output, ...(reason === undefined ? {} : { reason }) }) },
  };
  return { value, reports, renewals: () => renewals };
}

function run(message: JobMessage, worker: WorkerProcess | undefined, svc: JobServices) {
  const lines: string[] = [];
  const busy: boolean[] = [];
  let started = 0;
  const jobRun = new JobRun(message, {
    term: { line: (text = '') => void lines.push(text), success: (text) => void lines.push(`√ ${text}`), section: () => undefined, error: (text) => void lines.push(text) },
    timings,
    services: svc,
    startWorker: () => {
      started += 1;
      if (worker === undefined) throw new Error('no worker expected');
      return worker;
    },
    onBusy: (value) => void busy.push(value),
    diagnostic: () => undefined,
  });
  return { jobRun, lines, busy, started: () => started };
}

describe('JobRun', () => {
  it('takes the result from the exit code; a plan from version 8 on is left to the worker to report', async () => {
    const fake = fakeWorker({ exitOnJob: 100 });
    const svc = services();
    const { jobRun, lines, busy } = run(job(), fake.worker, svc.value);
    assert.equal(await jobRun.done, 'succeeded');
    assert.equal(fake.sent[0]?.type, WorkerMessageType.NewJobRequest);
    assert.equal(fake.sent[0]?.body, '{"jobId":"j"}', 'the message as received');
    assert.deepEqual(svc.reports, []);
    assert.deepEqual(busy, [true, false]);
    assert.ok(lines.some((line) => line.endsWith('Running job: build')));
    assert.ok(lines.some((line) => line.endsWith('Job build completed with result: Succeeded')));
    assert.ok(svc.renewals() >= 1, 'renewed before the worker started');
  });

  it('finishes a plan before version 8 with the result of the exit code', async () => {
    const fake = fakeWorker({ exitOnJob: 102 });
    const svc = services();
    const { jobRun } = run(job({ planVersion: 7 }), fake.worker, svc.value);
    assert.equal(await jobRun.done, 'failed');
    assert.deepEqual(svc.reports, [{ result: 'failed', output: undefined }]);
  });

  it('reports a crash (an exit code outside 100..105) as failed with the worker output', async () => {
    const fake = fakeWorker({ exitOnJob: 134 });
    const svc = services();
    const { jobRun, lines } = run(job({ runService: true, messageType: 'RunnerJobRequest' }), fake.worker, svc.value);
    assert.equal(await jobRun.done, 'failed');
    assert.deepEqual(svc.reports, [{ result: 'failed', output: ['worker line'], reason: 'The runner worker exited with exit code 134 before it reported the job.' }]);
    assert.ok(lines.some((line) => line.includes('crashed (exit code 134)')));
  });

  it('says a worker killed from outside (SIGKILL) failed the job, so the job has a reason', async () => {
    const fake = fakeWorker({ killedOnJob: 'SIGKILL' });
    const svc = services();
    const { jobRun, lines } = run(job(), fake.worker, svc.value);
    assert.equal(await jobRun.done, 'failed');
    assert.deepEqual(svc.reports, [{ result: 'failed', output: ['worker line'], reason: 'The runner worker exited with signal SIGKILL before it reported the job.' }]);
    assert.ok(lines.some((line) => line.includes('crashed (signal SIGKILL)')));
  });

  it('never starts a worker when the first renewal does not succeed', async () => {
    const svc = services({ failRenewals: true });
    const { jobRun, started } = run(job(), undefined, svc.value);
    assert.equal(await jobRun.done, 'abandoned');
    assert.equal(started(), 0);
    assert.equal(svc.renewals(), 6, 'five retries after the first attempt');
    assert.deepEqual(svc.reports, []);
  });

  it('forwards a cancel as CancelRequest and lets a worker that reports itself end the job', async () => {
    const fake = fakeWorker({ exitOnControl: 103 });
    const svc = services();
    const { jobRun } = run(job(), fake.worker, svc.value);
    while (fake.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    jobRun.cancel(0);
    assert.equal(await jobRun.done, 'canceled');
    assert.equal(fake.sent[1]?.type, WorkerMessageType.CancelRequest);
    assert.equal(fake.killed(), false);
    assert.deepEqual(svc.reports, [], 'the worker reported (plan 12)');
  });

  it('kills a worker that ignores RunnerShutdown after the wind-down and reports the job cancelled', async () => {
    const fake = fakeWorker({});
    const svc = services();
    const { jobRun, lines } = run(job(), fake.worker, svc.value);
    while (fake.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const stoppedAt = Date.now();
    jobRun.shutdown();
    assert.equal(await jobRun.done, 'canceled');
    assert.ok(Date.now() - stoppedAt >= 45, 'the wind-down was given');
    assert.equal(fake.sent[1]?.type, WorkerMessageType.RunnerShutdown);
    assert.equal(fake.killed(), true);
    assert.deepEqual(svc.reports, [{ result: 'canceled', output: ['worker line'], reason: 'The runner worker did not stop in time and was killed.' }]);
    assert.ok(lines.some((line) => line.includes('did not stop in time')));
  });

  it('a second interrupt kills at once', async () => {
    const fake = fakeWorker({});
    const svc = services();
    const { jobRun } = run(job(), fake.worker, { ...svc.value });
    while (fake.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    jobRun.shutdown();
    jobRun.forceStop();
    const started = Date.now();
    assert.equal(await jobRun.done, 'canceled');
    assert.ok(Date.now() - started < 45, 'no wind-down after the second interrupt');
    assert.equal(fake.killed(), true);
  });
});
