import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeServer } from '../fake-server.js';
import { LogMasker } from '../log-masker.js';
import { DEFAULT_REPORTER_TIMINGS, type TimelineRecord } from '../reporter-types.js';
import { LegacyReporter } from './legacy-reporter.js';

const PLAN = '8f6f3d2e-1a3b-4c5d-8e9f-0a1b2c3d4e5f';
const JOB = '2c9d6a41-7b1e-5f3a-9c2d-4e5f6a7b8c9d';
const STEP = 'b5d0e2a8-1111-4a6b-9a8e-0d3c2b1a0f9e';
const PREFIX = `/tenant/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}/_apis/distributedtask/hubs/actions/plans/${PLAN}`;
const TEMPLATE = '{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}';

function server(options: { failPatches?: number; completedStatus?: number; completedBody?: string } = {}): FakeServer {
  let failures = options.failPatches ?? 0;
  let logs = 0;
  const definition = (identifier: string, relativePath: string) => ({ identifier, relativePath, serviceType: 'distributedtask', displayName: 'x', resourceVersion: 1 });
  return new FakeServer()
    .route((call) =>
      call.url.pathname === '/tenant/_apis/connectionData'
        ? {
            json: {
              locationServiceData: {
                serviceDefinitions: [
                  definition('8893bc5b-35b2-4be7-83cb-99e683551db4', `${TEMPLATE}/timelines/{timelineId}/records`),
                  definition('858983e4-19bd-4c5e-864c-507b59b58b12', `${TEMPLATE}/timelines/{timelineId}/records/{recordId}/feed`),
                  definition('46f5667d-263a-4684-91b1-dff7fdcf64e2', `${TEMPLATE}/logs/{logId}`),
                  definition('7898f959-9cdf-4096-b29e-7f293031629e', `${TEMPLATE}/timelines/{timelineId}/records/{recordId}/attachments/{type}/{name}`),
                  definition('557624af-b29e-4c20-8ab0-0399d2204f3f', `${TEMPLATE}/events`),
                ],
              },
            },
          }
        : undefined,
    )
    .route((call) => {
      if (!call.url.pathname.endsWith('/records') || call.method !== 'PATCH') return undefined;
      if (failures > 0) {
        failures--;
        return { status: 503, json: { message: 'busy' } };
      }
      return { json: { count: 0, value: [] } };
    })
    .route((call) => (call.method === 'POST' && call.url.pathname.endsWith('/logs') ? { json: { id: ++logs, path: 'x' } } : undefined))
    .route((call) => (call.method === 'POST' && /\/logs\/\d+$/.test(call.url.pathname) ? { json: { id: 1 } } : undefined))
    .route((call) => (call.url.pathname.endsWith('/feed') ? { status: 204 } : undefined))
    .route((call) => (call.url.pathname.includes('/attachments/') ? { json: {} } : undefined))
    .route((call) => (call.url.pathname.endsWith('/events') ? { status: options.completedStatus ?? 204, text: options.completedBody ?? '' } : undefined));
}

function reporter(fake: FakeServer, version = 12, masker = new LogMasker()) {
  return new LegacyReporter({
    http: { fetch: fake.fetch, token: 'jt', timeoutMs: 5_000, userAgent: 'test', retryDelayMs: 1 },
    url: 'http://svc.test/tenant/',
    plan: { scopeIdentifier: '00000000-0000-0000-0000-000000000000', hub: 'actions', planId: PLAN, version },
    timelineId: PLAN,
    jobId: JOB,
    requestId: 1001,
    workerName: 'build-01',
    agentPlatform: 'Linux',
    masker,
    timings: { ...DEFAULT_REPORTER_TIMINGS, recordsMs: 5, uploadsMs: 5, feedFastMs: 5, feedMs: 5, completionRetryMs: 5 },
    now: () => new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 213)),
    diagnostic: () => undefined,
  });
}

function record(fields: Partial<TimelineRecord> & Pick<TimelineRecord, 'id'>): TimelineRecord {
  return {
    parentId: JOB,
    type: 'Task',
    name: 'Run echo hello',
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
    ...fields,
  };
}

type Wire = Record<string, unknown>;

describe('the legacy reporter', () => {
  it('sends records wrapped, log pages after their record, the link, the feed, the summary, then JobCompleted', async () => {
    const fake = server();
    const masker = new LogMasker();
    masker.add('hunter2');
    const r = reporter(fake, 12, masker);
    r.updateRecord(record({ id: JOB, parentId: null, type: 'Job', name: 'build', refName: 'build', order: null, state: 'inProgress' }));
    r.updateRecord(record({ id: STEP, state: 'inProgress', startTime: new Date(Date.UTC(2026, 7, 21, 10, 15, 3)) }));
    assert.equal(r.appendLog(STEP, 'hello hunter2'), 1);
    assert.equal(r.appendLog(STEP, 'two\nthree'), 3);
    r.updateRecord(record({ id: STEP, state: 'completed', result: 'succeeded', percentComplete: 100 }));
    r.endLog(STEP);
    r.attachStepSummary(STEP, '### hunter2\n');
    await r.completeJob({ result: 'succeeded', outputs: { artifact: 'a-68' } });
    await r.close();

    const patches = fake.find('/records', 'PATCH');
    assert.ok(patches.length >= 1);
    for (const patch of patches) {
      const body = patch.json() as { count: number; value: Wire[] };
      assert.equal(body.count, body.value.length, 'the list is wrapped with its count');
      assert.equal(patch.url.pathname, `${PREFIX}/timelines/${PLAN}/records`);
      assert.equal(patch.headers['authorization'], 'Bearer jt');
    }
    const sent = patches.flatMap((patch) => (patch.json() as { value: Wire[] }).value);
    const job = sent.find((w) => w['id'] === JOB);
    assert.deepEqual([job?.['type'], job?.['agentPlatform'], job?.['workerName']], ['Job', 'Linux', 'build-01']);
    const lastStep = sent.filter((w) => w['id'] === STEP && w['state'] !== undefined).at(-1);
    assert.deepEqual([lastStep?.['state'], lastStep?.['result'], lastStep?.['order']], ['completed', 'succeeded', 2]);

    const created = fake.find('/logs', 'POST');
    assert.deepEqual(created.map((c) => c.json()), [{ path: `logs\\${STEP}` }]);
    const page = fake.find(/\/logs\/1$/, 'POST')[0];
    assert.equal(page?.headers['content-type'], 'application/octet-stream');
    assert.equal(page?.body.toString('utf8'), ['hello ***', 'two', 'three'].map((line) => `2026-08-21T10:15:03.2130000Z ${line}\n`).join(''));
    assert.ok(fake.calls.indexOf(created[0]!) > fake.calls.indexOf(patches[0]!), 'the page goes up after its record');
    assert.ok(sent.some((w) => w['id'] === STEP && JSON.stringify(w['log']) === JSON.stringify({ id: 1, location: null })), 'the record is linked to its log');

    const feed = fake.find('/feed', 'POST');
    assert.equal(feed[0]?.url.pathname, `${PREFIX}/timelines/${PLAN}/records/${JOB}/feed`);
    assert.deepEqual(feed.flatMap((c) => (c.json() as { value: string[] }).value), ['hello ***', 'two', 'three']);
    assert.equal((feed[0]?.json() as { stepId: string }).stepId, STEP);

    const attachment = fake.find(`/records/${JOB}/attachments/Checks.Step.Summary/${STEP}`, 'PUT')[0];
    assert.equal(attachment?.body.toString('utf8'), '### ***\n');

    const events = fake.find('/events', 'POST');
    assert.deepEqual(events.map((c) => c.json()), [{ name: 'JobCompleted', jobId: JOB, requestId: 1001, result: 'succeeded', outputs: { artifact: { value: 'a-68' } } }]);
    assert.ok(fake.calls.indexOf(events[0]!) === fake.calls.length - 1, 'JobCompleted comes last');
  });

  it('retries a failed timeline update with the merged newest state; plans before v8 send no JobCompleted', async () => {
    const fake = server({ failPatches: 4 });
    const r = reporter(fake, 7);
    r.updateRecord(record({ id: STEP, state: 'inProgress', warningCount: 1, issues: [{ type: 'warning', message: 'w', data: {} }] }));
    r.updateRecord(record({ id: STEP, state: 'completed', result: 'failed' }));
    await r.completeJob({ result: 'failed', outputs: {} });
    await r.close();
    const ok = fake.find('/records', 'PATCH').filter((_c, i, all) => i === all.length - 1)[0];
    const value = (ok?.json() as { value: Wire[] }).value;
    assert.equal(value.length, 1);
    assert.deepEqual([value[0]?.['state'], value[0]?.['result'], value[0]?.['warningCount'], (value[0]?.['issues'] as unknown[]).length], ['completed', 'failed', 1, 1]);
    assert.equal(fake.find('/events').length, 0);
  });

  it('stops retrying JobCompleted when the plan is terminated, and rejects', async () => {
    const fake = server({ completedStatus: 409, completedBody: '{"typeKey":"TaskOrchestrationPlanTerminatedException","message":"over"}' });
    const r = reporter(fake);
    await assert.rejects(r.completeJob({ result: 'succeeded', outputs: {} }), /not told the job's result/);
    assert.equal(fake.find('/events').length, 1);
  });
});
