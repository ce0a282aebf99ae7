import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeServer } from '../fake-server.js';
import { LogMasker } from '../log-masker.js';
import { DEFAULT_REPORTER_TIMINGS, type TimelineRecord } from '../reporter-types.js';
import { RESULTS_BLOCK_BYTES, splitBlocks } from './results-client.js';
import { ResultsReporter } from './results-reporter.js';

const PLAN = 'd0ab717e-3242-433d-99af-c143d1ad0fe1';
const JOB = 'af60f1ed-e283-516c-8d88-01cc3ee1c589';
const STEP = '3eaa7409-bc89-4642-b916-394ccd6827df';
const RECEIVER = '/twirp/results.services.receiver.Receiver/';

function server(options: { completeStatus?: number; completeBody?: unknown; storage?: string } = {}): FakeServer {
  const ok = { json: { ok: true } };
  return new FakeServer()
    .route((c) => (c.url.pathname.endsWith('/WorkflowStepsUpdate') ? ok : undefined))
    .route((c) => (c.url.pathname.endsWith('/GetJobLogsSignedBlobURL') ? { json: { logs_url: 'http://blobs.test/job-log?sig=3', blob_storage_type: options.storage ?? 'BLOB_STORAGE_TYPE_UNSPECIFIED' } } : undefined))
    .route((c) =>
      c.url.pathname.endsWith('SignedBlobURL')
        ? { json: { logs_url: 'http://blobs.test/blob?sig=1', summary_url: 'http://blobs.test/summary?sig=2', blob_storage_type: options.storage ?? 'BLOB_STORAGE_TYPE_UNSPECIFIED', soft_size_limit: 1024 } }
        : undefined,
    )
    .route((c) => (c.url.pathname.endsWith('Metadata') ? ok : undefined))
    .route((c) => (c.url.host === 'blobs.test' ? { status: 201 } : undefined))
    .route((c) => (c.url.pathname === '/run/completejob' ? { status: options.completeStatus ?? 200, json: options.completeBody ?? {} } : undefined));
}

function reporter(fake: FakeServer, resultsEndpoint: string | undefined = 'http://results.test/') {
  const masker = new LogMasker();
  masker.add('hunter2');
  return new ResultsReporter({
    http: { fetch: fake.fetch, token: 'jt', timeoutMs: 5_000, userAgent: 'test', retryDelayMs: 1 },
    url: 'http://svc.test/run/',
    resultsEndpoint,
    planId: PLAN,
    jobId: JOB,
    billingOwnerId: 'acme',
    masker,
    timings: { ...DEFAULT_REPORTER_TIMINGS, recordsMs: 5, uploadsMs: 5, completionRetryMs: 5 },
    now: () => new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 213)),
    diagnostic: () => undefined,
  });
}

function step(fields: Partial<TimelineRecord>): TimelineRecord {
  return {
    id: STEP,
    parentId: JOB,
    type: 'Task',
    name: 'Prepare directories',
    refName: '__run',
    order: 2,
    state: 'pending',
    result: null,
    startTime: null,
    finishTime: null,
    percentComplete: 0,
    errorCount: 0,
    warningCount: 0,
    noticeCount: 0,
    issues: [],
    stepType: 'run',
    ...fields,
  };
}

describe('the run-service reporter', () => {
  it('step updates with counting change_order, the step log and its metadata, the summary, then completejob', async () => {
    const fake = server();
    const r = reporter(fake);
    r.updateRecord({ ...step({}), id: JOB, parentId: null, type: 'Job', order: null });
    r.updateRecord(step({ state: 'inProgress', startTime: new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 200)) }));
    r.appendLog(STEP, 'hello hunter2');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const failure = { type: 'error' as const, message: 'Process completed with exit code 1.', data: { stepNumber: '2', logFileLineNumber: '2' } };
    r.updateRecord(step({ state: 'completed', result: 'failed', startTime: new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 200)), finishTime: new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 510)), errorCount: 1, issues: [failure] }));
    r.appendLog(STEP, 'bye');
    r.endLog(STEP);
    r.attachStepSummary(STEP, '# hunter2');
    await r.completeJob({ result: 'failed', outputs: { artifact: 'a-68' }, environment: { name: 'prod', url: 'https://app.test' } });

    const updates = fake.find('/WorkflowStepsUpdate').map((c) => c.json() as { change_order: number; steps: Array<Record<string, unknown>>; workflow_job_run_backend_id: string });
    assert.deepEqual(updates.map((u) => u.change_order), updates.map((_u, i) => i + 1));
    assert.ok(updates.every((u) => u.workflow_job_run_backend_id === JOB && u.steps.every((s) => s['external_id'] === STEP)), 'Task records only');
    assert.deepEqual(updates.at(-1)?.steps[0], {
      external_id: STEP,
      number: 2,
      name: 'Prepare directories',
      status: 6,
      started_at: '2026-08-21T10:15:03.200Z',
      completed_at: '2026-08-21T10:15:03.510Z',
      conclusion: 3,
    });
    const put = fake.calls.filter((c) => c.url.host === 'blobs.test' && c.url.pathname === '/blob');
    assert.equal(put.length, 1, 'one block: a single PUT');
    assert.equal(put[0]?.headers['authorization'], undefined, 'signed URLs get no token');
    assert.equal(put[0]?.headers['x-ms-blob-type'], undefined, 'no Azure headers for another storage type');
    assert.equal(put[0]?.body.toString('utf8'), '2026-08-21T10:15:03.2130000Z hello ***\n2026-08-21T10:15:03.2130000Z bye\n');
    assert.deepEqual(fake.find(`${RECEIVER}CreateStepLogsMetadata`)[0]?.json(), {
      workflow_run_backend_id: PLAN,
      workflow_job_run_backend_id: JOB,
      step_backend_id: STEP,
      uploaded_at: '2026-08-21T10:15:03.213Z',
      line_count: 2,
    });
    assert.ok(fake.calls.indexOf(fake.find('/WorkflowStepsUpdate')[0]!) < fake.calls.indexOf(fake.find(`${RECEIVER}GetStepLogsSignedBlobURL`)[0]!));
    assert.equal(fake.calls.find((c) => c.url.pathname === '/summary')?.body.toString('utf8'), '# ***');
    assert.equal((fake.find(`${RECEIVER}CreateStepSummaryMetadata`)[0]?.json() as { size: number }).size, 5);
    // The job log goes up on every job, after the steps' logs and before completejob: here without job-level lines.
    const jobLog = fake.calls.filter((c) => c.url.pathname === '/job-log');
    assert.deepEqual(jobLog.map((c) => [c.method, c.body.length, c.headers['authorization']]), [['PUT', 0, undefined]]);
    assert.deepEqual(fake.find(`${RECEIVER}CreateJobLogsMetadata`).map((c) => c.json()), [
      { workflow_run_backend_id: PLAN, workflow_job_run_backend_id: JOB, uploaded_at: '2026-08-21T10:15:03.213Z', line_count: 0 },
    ]);
    const at = (suffix: string) => fake.calls.indexOf(fake.find(suffix)[0]!);
    assert.ok(at(`${RECEIVER}CreateStepLogsMetadata`) < at(`${RECEIVER}GetJobLogsSignedBlobURL`), 'the job log after the step log');
    assert.ok(at(`${RECEIVER}CreateJobLogsMetadata`) < at('/run/completejob'), 'the job log before completejob');

    const complete = fake.find('/run/completejob');
    assert.equal(complete.length, 1);
    assert.deepEqual(complete[0]?.json(), {
      planId: PLAN,
      jobId: JOB,
      conclusion: 'failed',
      outputs: { artifact: { value: 'a-68' } },
      stepResults: [
        {
          external_id: STEP,
          number: 2,
          name: 'Prepare directories',
          type: 'run',
          status: 'completed',
          conclusion: 'failed',
          started_at: '2026-08-21T10:15:03.200Z',
          completed_at: '2026-08-21T10:15:03.510Z',
          completed_log_lines: 2,
          annotations: [
            { level: 'failure', message: 'Process completed with exit code 1.', startLine: 2, endLine: 2, startColumn: 0, endColumn: 0, stepNumber: 2, isInfrastructureIssue: false },
          ],
        },
      ],
      annotations: [],
      environmentUrl: 'https://app.test',
      billingOwnerId: 'acme',
    });
  });

  it('a long log is an append blob: created empty, one appendblock per 2 MiB block, the last sealed', async () => {
    const fake = server({ storage: 'BLOB_STORAGE_TYPE_AZURE' });
    const r = reporter(fake);
    r.updateRecord(step({ state: 'inProgress' }));
    const line = 'x'.repeat(1023);
    for (let i = 0; i < 2100; i++) r.appendLog(STEP, line);
    r.endLog(STEP);
    await r.completeJob({ result: 'succeeded', outputs: {} });
    const puts = fake.calls.filter((c) => c.url.pathname === '/blob');
    assert.deepEqual(
      puts.map((c) => [c.url.search, c.headers['x-ms-blob-type'] ?? c.headers['x-ms-blob-sealed'], c.body.length <= RESULTS_BLOCK_BYTES]),
      [
        ['?sig=1', 'AppendBlob', true],
        ['?sig=1&comp=appendblock', 'False', true],
        ['?sig=1&comp=appendblock&seal=true', 'True', true],
      ],
    );
    assert.equal((fake.find(`${RECEIVER}CreateStepLogsMetadata`)[0]?.json() as { line_count: number }).line_count, 2100);
  });

  it("the job record's own lines are the job log, uploaded once with their count", async () => {
    const fake = server();
    const r = reporter(fake);
    r.updateRecord({ ...step({}), id: JOB, parentId: null, type: 'Job', order: null, state: 'inProgress' });
    r.appendLog(JOB, '##[error]The runner has received a shutdown signal (hunter2).');
    r.endLog(JOB);
    await r.completeJob({ result: 'canceled', outputs: {} });
    assert.deepEqual(
      fake.calls.filter((c) => c.url.pathname === '/job-log').map((c) => c.body.toString('utf8')),
      ['2026-08-21T10:15:03.2130000Z ##[error]The runner has received a shutdown signal (***).\n'],
    );
    assert.deepEqual(fake.find(`${RECEIVER}CreateJobLogsMetadata`).map((c) => (c.json() as { line_count: number }).line_count), [1]);
    assert.equal(fake.find(`${RECEIVER}GetStepLogsSignedBlobURL`).length, 0, 'no step wrote a line');
  });

  it('without a results endpoint only completejob reaches the server; a run-service 404 stops its retries', async () => {
    const fake = server({ completeStatus: 404, completeBody: { source: 'actions-run-service', statusCode: 404, errorMessage: 'gone' } });
    const r = reporter(fake, '');
    r.updateRecord(step({ state: 'completed', result: 'succeeded' }));
    r.appendLog(STEP, 'line');
    r.endLog(STEP);
    await assert.rejects(r.completeJob({ result: 'succeeded', outputs: {} }), /not told the job's result/);
    assert.deepEqual(fake.calls.map((c) => c.url.pathname), ['/run/completejob']);
  });

  it('cuts blocks at line ends', () => {
    const blocks = splitBlocks(`${'a'.repeat(RESULTS_BLOCK_BYTES - 10)}\nbbbbbbbbbbbbbbbbbbbb\n`);
    assert.deepEqual(blocks.map((b) => b.length), [RESULTS_BLOCK_BYTES - 9, 21]);
  });
});
