/**
 * The results service against `svc serve` (RUNNER-PROTOCOL.md §4.6-§4.8): a job acquired over the
 * broker flow is run by a scripted Worker in run-service mode, making the official Worker's
 * results calls in its order (actions/runner ResultsHttpClient.cs, JobServerQueue.cs,
 * Logging.cs): `WorkflowStepsUpdate` as steps change, each step's log as one blob or as an append
 * blob (a signed URL asked for before every block), the job's log, a step summary, then
 * `completejob` with step results and annotations. The run must show it: steps, each log line
 * once under its step, the summary where the legacy flow keeps it, annotations once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import type { RunnerJobRequestBody } from '../../core/protocol/index.js';
import type { BlobStore } from '../../core/ports/index.js';
import { tempDir } from '../support/services.js';
import { delay, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS, runnerHost, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';
import { ScriptedRunner } from './scripted-runner.js';
import { send, type HttpResult } from './vss-client.js';

async function readBlob(store: BlobStore, key: string): Promise<Buffer | undefined> {
  const stream = await store.get(key);
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const RECEIVER = 'twirp/results.services.receiver.Receiver/';
const STEPS_UPDATE = 'twirp/github.actions.results.api.v1.WorkflowStepUpdateService/WorkflowStepsUpdate';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const T0 = Date.UTC(2030, 0, 1, 0, 0, 1);
/** .NET `DateTime.ToString("O")`, what prefixes each log line. */
const at = (seconds: number) => `${new Date(T0 + seconds * 1000).toISOString().slice(0, -1)}0000Z`;
/** The results client's `yyyy-MM-ddTHH:mm:ss.fffZ`. */
const stamp = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** A block file as Logging.cs writes it: .NET's UTF-8 with its BOM, one `<timestamp> <text>` per line. */
function block(lines: readonly (readonly [number, string])[]): Buffer {
  return Buffer.concat([BOM, Buffer.from(lines.map(([seconds, text]) => `${at(seconds)} ${text}\n`).join(''), 'utf8')]);
}

interface Acquired {
  readonly runId: number;
  readonly jobId: number;
  readonly planId: string;
  readonly jobRecordId: string;
  readonly systemUrl: string;
  readonly token: string;
  readonly resultsUrl: string;
  readonly stepId: string;
}

interface Fixture {
  readonly h: RunnerHost;
  readonly dataDir: string;
  readonly broker: ScriptedBroker;
  readonly job: Acquired;
}

/** A broker-flow host, a runner that took a job (acquirejob, first renewjob), as the Listener does before starting its Worker. */
async function acquiredJob(t: TestContext, kind: StoreKind): Promise<Fixture> {
  const dataDir = await tempDir(t);
  const h = await runnerHost(t, { kind, env: { SVC_RUNNER_FLOW: 'broker', SVC_DATA_DIR: dataDir }, plugin: { timings: { pollHoldMs: 1500 } } });
  const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name: 'broker-01', clock: h.clock });
  const config = await runner.configure({ labels: ['linux'] });
  assert.ok(config.settings.serverUrlV2);
  const broker = new ScriptedBroker(runner, config, config.settings.serverUrlV2);
  assert.equal((await broker.createSession()).status, 200);
  const polling = broker.nextMessage();
  await delay(200);
  const { run, job } = await queueRun(h, ['linux']);
  const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;
  assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 200);
  const acquired = await broker.acquire(reference);
  assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
  const message = acquired.body as {
    jobId: string;
    plan: { planId: string };
    steps: { id: string }[];
    variables: Record<string, { value: string }>;
    resources: { endpoints: { name: string; url: string; authorization: { parameters: { AccessToken: string } } }[] };
  };
  const system = message.resources.endpoints.find((endpoint) => endpoint.name === 'SystemVssConnection');
  assert.ok(system);
  const resultsUrl = message.variables['system.github.results_endpoint']?.value ?? '';
  assert.equal(resultsUrl, `${h.baseUrl}/`, 'results calls go to this server, Twirp at its root');
  const [step] = message.steps;
  assert.ok(step, 'the message has the echo step');
  const acquiredJob: Acquired = {
    runId: run.id,
    jobId: job.id,
    planId: message.plan.planId,
    jobRecordId: message.jobId,
    systemUrl: system.url,
    token: system.authorization.parameters.AccessToken,
    resultsUrl,
    stepId: step.id,
  };
  assert.equal((await broker.renew(acquiredJob.systemUrl, acquiredJob.token, { planId: acquiredJob.planId, jobId: acquiredJob.jobRecordId })).status, 200);
  return { h, dataDir, broker, job: acquiredJob };
}

/** The Worker's ResultsHttpClient: Twirp JSON POSTs with the job token, and plain PUTs to signed URLs. */
class ResultsClient {
  readonly calls: string[] = [];
  #changeOrder = 1;

  constructor(readonly job: Acquired) {}

  get ids() {
    return { workflow_run_backend_id: this.job.planId, workflow_job_run_backend_id: this.job.jobRecordId };
  }

  twirp(method: string, body: unknown, token: string = this.job.token): Promise<HttpResult> {
    return send(this.calls, 'POST', new URL(method.includes('/') ? method : `${RECEIVER}${method}`, this.job.resultsUrl).href, { headers: { authorization: `Bearer ${token}` }, json: body });
  }

  steps(steps: readonly Record<string, unknown>[], changeOrder = this.#changeOrder++): Promise<HttpResult> {
    return this.twirp(STEPS_UPDATE, { ...this.ids, change_order: changeOrder, steps });
  }

  async put(url: string, body: Buffer | undefined, headers: Record<string, string> = {}): Promise<{ readonly status: number; readonly text: string }> {
    const response = await fetch(url, { method: 'PUT', headers, ...(body === undefined ? {} : { body }) });
    this.calls.push(`PUT ${new URL(url).pathname} ${response.status}`);
    return { status: response.status, text: await response.text() };
  }

  /** UploadResultsStepLogAsync for one block: a fresh URL, then a single blob (first and final), or create/append. */
  async stepLogBlock(stepId: string, bytes: Buffer, first: boolean, final: boolean): Promise<string> {
    const answer = ok(await this.twirp('GetStepLogsSignedBlobURL', { ...this.ids, step_backend_id: stepId }));
    const { logs_url: url, blob_storage_type: type } = answer.body as { logs_url: string; blob_storage_type: string };
    assert.equal(type, 'BLOB_STORAGE_TYPE_UNSPECIFIED');
    await this.upload(url, bytes, first, final);
    return url;
  }

  async upload(url: string, bytes: Buffer, first: boolean, final: boolean): Promise<void> {
    const text = { 'content-type': 'text/plain' };
    if (first && final) return void created(await this.put(url, bytes, text));
    if (first) created(await this.put(url, Buffer.alloc(0), text));
    created(await this.put(`${url}${final ? '&comp=appendblock&seal=true' : '&comp=appendblock'}`, bytes));
  }
}

function ok(result: HttpResult, status = 200): HttpResult {
  assert.equal(result.status, status, JSON.stringify(result.body));
  return result;
}

function created(result: { readonly status: number; readonly text: string }): void {
  assert.equal(result.status, 201, result.text);
}

function twirpError(result: HttpResult, status: number, code: string): string {
  assert.equal(result.status, status, JSON.stringify(result.body));
  const body = result.body as { code?: unknown; msg?: unknown };
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(typeof body.msg, 'string');
  return String(body.msg);
}

function system(h: RunnerHost): Record<string, string> {
  return { authorization: `Bearer ${h.systemToken}` };
}

async function runLogs(h: RunnerHost, runId: number, query: string): Promise<string[]> {
  const response = await fetch(`${h.baseUrl}/api/v1/runs/${runId}/logs${query}`, { headers: system(h) });
  assert.equal(response.status, 200);
  return (await response.text()).split('\n').filter((line) => line !== '');
}

async function jobSteps(h: RunnerHost, runId: number): Promise<(string | number | null)[][]> {
  const response = await fetch(`${h.baseUrl}/api/v1/runs/${runId}`, { headers: system(h) });
  assert.equal(response.status, 200);
  const view = (await response.json()) as { jobs: { steps: { number: number; name: string; status: string; conclusion: string | null }[] }[] };
  return (view.jobs[0]?.steps ?? []).map((s) => [s.number, s.name, s.status, s.conclusion]);
}

async function annotations(h: RunnerHost, runId: number): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${h.baseUrl}/api/v1/runs/${runId}/events.ndjson`, { headers: system(h) });
  const events = (await response.text()).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  return events.filter((event) => event['type'] === 'annotation');
}

/** A results step as ConvertTimelineRecordToStep writes it (status 3/5/6, conclusion 0/2/3/4/7). */
function step(id: string, number: number, name: string, status: number, conclusion: number, started?: number, completed?: number): Record<string, unknown> {
  return { external_id: id, number, name, status, started_at: started === undefined ? null : stamp(started), completed_at: completed === undefined ? null : stamp(completed), conclusion };
}

for (const backend of RUNNER_BACKENDS) {
  describe(`results service: the Worker in run-service mode (${backend.kind})`, { skip: backend.skip }, () => {
    it('steps, logs, a summary and completejob land in the run as the legacy reports do', async (t) => {
      const { h, broker, job } = await acquiredJob(t, backend.kind);
      const w = new ResultsClient(job);
      const setup = randomUUID();
      const complete = randomUUID();

      // Step updates: 1 and 2 in order, then a late copy of 1 (the HTTP stack's retry), which must not win.
      ok(await w.steps([step(setup, 1, 'Set up job', 3, 0, 0), step(job.stepId, 2, 'Run echo hello', 5, 0), step(complete, 3, 'Complete job', 5, 0)]));
      const second = ok(await w.steps([step(setup, 1, 'Set up job', 6, 2, 0, 1), step(job.stepId, 2, 'Run echo hello', 3, 0, 1)]));
      assert.deepEqual(second.body, { ok: true });
      ok(await w.steps([step(setup, 1, 'Set up job', 3, 0, 0), step(job.stepId, 2, 'Run echo hello', 5, 0)], 1));
      assert.deepEqual(await jobSteps(h, job.runId), [
        [1, 'Set up job', 'success', 'success'],
        [2, 'Run echo hello', 'in_progress', null],
        [3, 'Complete job', 'pending', null],
      ]);

      // "Set up job": one block, so one blob.
      const setupUrl = await w.stepLogBlock(setup, block([[0, 'Current runner version: 2.337.0'], [1, 'Complete job name: build']]), true, true);
      assert.match(setupUrl, /^http:\/\/127\.0\.0\.1:\d+\/_results\/uploads\/[^?]+\?.*sig=/, 'a signed URL that already has a query');
      ok(await w.twirp('CreateStepLogsMetadata', { ...w.ids, step_backend_id: setup, uploaded_at: stamp(1), line_count: 2 }));

      // The echo step: three blocks, so an append blob, a fresh URL asked for before each block.
      const blocks = [block([[1, '##[group]Run echo hello'], [1, 'echo hello']]), block([[2, '##[endgroup]'], [2, 'hello']]), block([[2, 'multi'], [3, 'done']])];
      const urls = [await w.stepLogBlock(job.stepId, blocks[0]!, true, false), await w.stepLogBlock(job.stepId, blocks[1]!, false, false), await w.stepLogBlock(job.stepId, blocks[2]!, false, true)];
      assert.equal(new Set(urls.map((url) => new URL(url).pathname)).size, 1, 'every block goes to the same blob');
      const metadata = { ...w.ids, step_backend_id: job.stepId.toUpperCase(), uploaded_at: stamp(3), line_count: 6 };
      assert.deepEqual(ok(await w.twirp('CreateStepLogsMetadata', metadata)).body, { ok: true });
      assert.deepEqual(ok(await w.twirp('CreateStepLogsMetadata', metadata)).body, { ok: true }, 'a resent metadata call is answered');
      const sealed = await w.put(`${urls[2]}&comp=appendblock`, Buffer.from('late\n'));
      assert.equal(sealed.status, 409, `an append after the seal: ${sealed.text}`);

      // The step summary, uploaded whole without a content type, like UploadStepSummaryAsync.
      const summary = Buffer.from('### Echoed\n\nhello\n');
      const url = ok(await w.twirp('GetStepSummarySignedBlobURL', { ...w.ids, step_backend_id: job.stepId })).body as Record<string, unknown>;
      assert.deepEqual([url['soft_size_limit'], url['blob_storage_type']], [1024 * 1024, 'BLOB_STORAGE_TYPE_UNSPECIFIED']);
      created(await w.put(String(url['summary_url']), summary));
      ok(await w.twirp('CreateStepSummaryMetadata', { ...w.ids, step_backend_id: job.stepId, size: summary.length, uploaded_at: stamp(3) }));

      ok(await w.steps([step(job.stepId, 2, 'Run echo hello', 6, 2, 1, 3), step(complete, 3, 'Complete job', 3, 0, 3)]));

      // The job's own log, at job end.
      const jobLog = ok(await w.twirp('GetJobLogsSignedBlobURL', w.ids)).body as { logs_url: string };
      created(await w.put(jobLog.logs_url, block([[3, 'Cleaning up orphan processes']]), { 'content-type': 'text/plain' }));
      ok(await w.twirp('CreateJobLogsMetadata', { ...w.ids, uploaded_at: stamp(4), line_count: 1 }));

      // The diagnostic logs (runner diagnostics on): one PUT and no metadata call.
      const diag = ok(await w.twirp('GetJobDiagLogsSignedBlobURL', w.ids)).body as { diag_logs_url: string; blob_storage_type: string };
      const zip = Buffer.from('PK\u0003\u0004 not really a zip');
      created(await w.put(diag.diag_logs_url, zip));

      // completejob: final step states, the annotations of the echo step's issues, one job-level annotation.
      const failure = { level: 'failure', message: 'Missing semicolon', title: 'lint', path: 'src/a.ts', startLine: 3, endLine: 3, startColumn: 5, endColumn: 9, stepNumber: 2 };
      const warning = { level: 'WARNING', message: 'Deprecated input', startLine: 7, endLine: 7, stepNumber: 2 };
      const body = {
        planId: job.planId,
        jobId: job.jobRecordId,
        conclusion: 'succeeded',
        outputs: {},
        stepResults: [
          { external_id: setup, number: 1, name: 'Set up job', status: 'completed', conclusion: 'succeeded', started_at: stamp(0), completed_at: stamp(1), annotations: [] },
          { external_id: job.stepId, number: 2, name: 'Run echo hello', type: 'run', status: 'completed', conclusion: 'succeeded', started_at: stamp(1), completed_at: stamp(3), annotations: [failure, warning] },
          { external_id: complete, number: 3, name: 'Complete job', status: 'completed', conclusion: 'succeeded', started_at: stamp(3), completed_at: stamp(4) },
        ],
        annotations: [{ level: 1, message: 'Job-level notice' }],
      };
      ok(await broker.call('POST', new URL('completejob', job.systemUrl).href, { token: job.token, json: body }));
      const repeat = await broker.call('POST', new URL('completejob', job.systemUrl).href, { token: job.token, json: { ...body, conclusion: 'failed' } });
      assert.equal(repeat.status, 200, 'a repeat (the first answer was lost) is answered, and changes nothing');

      assert.equal((await h.engine.getJob(job.jobId))?.status, 'success');
      assert.deepEqual(await jobSteps(h, job.runId), [
        [1, 'Set up job', 'success', 'success'],
        [2, 'Run echo hello', 'success', 'success'],
        [3, 'Complete job', 'success', 'success'],
      ]);

      const lines = await runLogs(h, job.runId, '?job=build');
      assert.deepEqual(lines, [
        `${at(0)} Current runner version: 2.337.0`,
        `${at(1)} Complete job name: build`,
        `${at(1)} ##[group]Run echo hello`,
        `${at(1)} echo hello`,
        `${at(2)} ##[endgroup]`,
        `${at(2)} hello`,
        `${at(2)} multi`,
        `${at(3)} done`,
        `${at(3)} Cleaning up orphan processes`,
      ]);
      assert.deepEqual((await runLogs(h, job.runId, '?job=build&step=2')).map((line) => line.slice(29)), ['##[group]Run echo hello', 'echo hello', '##[endgroup]', 'hello', 'multi', 'done']);
      assert.deepEqual((await runLogs(h, job.runId, '?job=build&step=1')).map((line) => line.slice(29)), ['Current runner version: 2.337.0', 'Complete job name: build']);

      // Read through the store: the data dir's files with SQLite, PostgreSQL's rows with PostgreSQL.
      const attachments = `runner-attachments/${job.runId}/${job.jobId}/1/${job.jobRecordId}`;
      const stored = await readBlob(h.blobStore, `${attachments}/Checks.Step.Summary/${job.stepId}`);
      assert.deepEqual(stored, summary, 'the summary is where the legacy Checks.Step.Summary attachment is');
      const diagnostics = await readBlob(h.blobStore, `${attachments}/Results.Core.DiagnosticLog/diagnostic-logs.zip`);
      assert.deepEqual(diagnostics, zip);

      assert.deepEqual(await annotations(h, job.runId), [
        { type: 'annotation', run_id: job.runId, job_id: job.jobId, level: 'error', message: 'Missing semicolon', title: 'lint', file: 'src/a.ts', line: 3, end_line: 3, col: 5, end_col: 9 },
        { type: 'annotation', run_id: job.runId, job_id: job.jobId, level: 'warning', message: 'Deprecated input' },
        { type: 'annotation', run_id: job.runId, job_id: job.jobId, level: 'notice', message: 'Job-level notice' },
      ]);
    });

    it('refuses bad calls in the Twirp envelope, never with a 500', async (t) => {
      const { h, job } = await acquiredJob(t, backend.kind);
      const w = new ResultsClient(job);
      const stepId = randomUUID();

      // Another job's backend ids, and a token that is no token.
      const other = { workflow_run_backend_id: job.planId, workflow_job_run_backend_id: randomUUID() };
      assert.match(twirpError(await w.twirp('GetStepLogsSignedBlobURL', { ...other, step_backend_id: stepId }), 403, 'permission_denied'), /reports for job/);
      twirpError(await w.twirp(STEPS_UPDATE, { ...w.ids, workflow_run_backend_id: randomUUID(), change_order: 1, steps: [] }), 403, 'permission_denied');
      const anonymous = await w.twirp('GetJobLogsSignedBlobURL', w.ids, 'not-a-token');
      twirpError(anonymous, 401, 'unauthenticated');
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');

      // Malformed bodies.
      assert.match(twirpError(await w.twirp('GetStepLogsSignedBlobURL', { ...w.ids, step_backend_id: 'step-1' }), 400, 'invalid_argument'), /step_backend_id/);
      twirpError(await w.twirp('CreateJobLogsMetadata', { workflow_run_backend_id: job.planId }), 400, 'invalid_argument');
      twirpError(await w.steps([{ external_id: stepId, number: 1, name: 'x', status: 4, conclusion: 0 }]), 400, 'invalid_argument');
      twirpError(await w.steps([{ external_id: stepId, number: 1, name: 'x', status: 6, conclusion: 2, started_at: 'yesterday' }]), 400, 'invalid_argument');
      // A change order past what an int8 column keeps (issue 15): the field is named, nothing is stored.
      assert.match(twirpError(await w.steps([{ external_id: stepId, number: 1, name: 'x', status: 3, conclusion: 0 }], 1e308), 400, 'invalid_argument'), /change_order/);
      const garbled = await fetch(new URL(`${RECEIVER}GetJobLogsSignedBlobURL`, job.resultsUrl), { method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' }, body: '{"workflow_run' });
      assert.deepEqual([garbled.status, ((await garbled.json()) as { code: string }).code], [400, 'malformed']);
      twirpError(await w.twirp('GetStepLogsSignedBlobURLs', { ...w.ids, step_backend_id: stepId }), 404, 'bad_route');
      twirpError(await send(w.calls, 'GET', new URL(`${RECEIVER}GetJobLogsSignedBlobURL`, job.resultsUrl).href, { headers: { authorization: `Bearer ${job.token}` } }), 404, 'bad_route');

      // Metadata for nothing uploaded.
      assert.match(twirpError(await w.twirp('CreateStepLogsMetadata', { ...w.ids, step_backend_id: stepId, line_count: 1 }), 404, 'not_found'), /nothing was uploaded/);

      // Append blobs: append before create, after the seal; a block blob takes no appends.
      const { logs_url: url } = ok(await w.twirp('GetStepLogsSignedBlobURL', { ...w.ids, step_backend_id: stepId })).body as { logs_url: string };
      assert.equal((await w.put(`${url}&comp=appendblock`, block([[0, 'early']]))).status, 404, 'nothing to append to yet');
      await w.upload(url, block([[0, 'one']]), true, false);
      await w.upload(url, block([[0, 'two']]), false, true);
      assert.equal((await w.put(`${url}&comp=appendblock`, block([[0, 'three']]))).status, 409, 'sealed');
      assert.equal((await w.put(url, block([[0, 'whole']]), { 'x-ms-blob-type': 'BlockBlob' })).status, 201, 'Put Blob replaces an unfinished blob (Azure variant)');
      assert.equal((await w.put(`${url}&comp=appendblock`, block([[0, 'three']]), { 'x-ms-blob-type': 'AppendBlob' })).status, 409, 'a block blob takes no appends');
      assert.equal((await w.put(url, block([[0, 'x']]), { 'x-ms-blob-type': 'AppendBlob' })).status, 400, 'an append blob is created empty');
      assert.equal((await w.put(`${url}&comp=block`, block([[0, 'x']]))).status, 400);
      ok(await w.twirp('CreateStepLogsMetadata', { ...w.ids, step_backend_id: stepId, line_count: 1 }));
      assert.equal((await w.put(url, block([[0, 'again']]))).status, 409, 'a completed log takes no more writes');
      twirpError(await w.twirp('GetStepLogsSignedBlobURL', { ...w.ids, step_backend_id: stepId }), 412, 'failed_precondition');
      assert.deepEqual((await runLogs(h, job.runId, '?job=build')).map((line) => line.slice(29)), ['whole'], 'the replaced blocks are gone');

      // Signed URLs: tampered with, or another upload's.
      const summaryAnswer = ok(await w.twirp('GetStepSummarySignedBlobURL', { ...w.ids, step_backend_id: stepId })).body as { summary_url: string };
      const summaryUrl = new URL(summaryAnswer.summary_url);
      const sig = summaryUrl.searchParams.get('sig') ?? '';
      const tampered = new URL(summaryUrl);
      tampered.searchParams.set('sig', `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`);
      const refused = await w.put(tampered.href, Buffer.from('x'));
      assert.equal(refused.status, 403, refused.text);
      assert.equal((JSON.parse(refused.text) as { code: string }).code, 'signature_invalid');
      const elsewhere = new URL(url);
      elsewhere.search = summaryUrl.search;
      assert.equal((await w.put(elsewhere.href, Buffer.from('x'))).status, 403, "one upload's signature opens no other");
      assert.equal((await w.put(summaryUrl.href, Buffer.alloc(1024 * 1024 + 1, 0x61))).status, 413, 'a summary past its soft size limit');
      created(await w.put(summaryUrl.href, Buffer.from('# fine\n')));
      const wrongSize = twirpError(await w.twirp('CreateStepSummaryMetadata', { ...w.ids, step_backend_id: stepId, size: 3 }), 400, 'invalid_argument');
      assert.match(wrongSize, /7 bytes uploaded/);

      // completejob's annotations are checked by its schema.
      const bad = await w.twirp(new URL('completejob', job.systemUrl).href, { planId: job.planId, jobId: job.jobRecordId, conclusion: 'succeeded', annotations: [{ level: 'severe', message: 'x' }] });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal((await h.engine.getJob(job.jobId))?.status, 'in_progress');

      // A URL past its expiry.
      h.clock.advance(2 * 60 * 60 * 1000);
      const expired = await w.put(summaryUrl.href, Buffer.from('# late\n'));
      assert.equal(expired.status, 403, expired.text);
      assert.equal((JSON.parse(expired.text) as { code: string }).code, 'signature_expired');
      assert.ok(!w.calls.some((call) => call.endsWith(' 500')), w.calls.join('\n'));
    });
  });
}
