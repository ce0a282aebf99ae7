import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RUN_ADVANCE_CHANNEL, RUN_EVENTS_CHANNEL, type Assignment } from '../../core/engine/index.js';
import { engineHost } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { testRunner } from '../support/test-runner.js';

type Line = Record<string, unknown>;

/** The spec's fields per `type` ("NDJSON run events"); optional ones in brackets. */
const SPEC_FIELDS: Readonly<Record<string, { required: string[]; optional: string[] }>> = {
  run_accepted: { required: ['type', 'run_id', 'queued_jobs'], optional: [] },
  run_status: { required: ['type', 'run_id', 'status'], optional: ['reason'] },
  job_status: { required: ['type', 'run_id', 'job_id', 'status'], optional: ['reason'] },
  log: { required: ['type', 'run_id', 'job_id', 'line'], optional: [] },
  annotation: { required: ['type', 'run_id', 'job_id', 'level', 'message'], optional: ['title', 'file', 'line', 'end_line', 'col', 'end_col'] },
  job_completed: { required: ['type', 'run_id', 'job_id', 'status', 'outputs'], optional: [] },
  check_run_created: { required: ['type', 'run_id'], optional: [] },
};

function assertSpecShape(line: Line): void {
  const fields = SPEC_FIELDS[String(line['type'])];
  assert.ok(fields, `unknown type in ${JSON.stringify(line)}`);
  for (const key of fields.required) assert.ok(key in line, `${line['type']} lacks ${key}: ${JSON.stringify(line)}`);
  for (const key of Object.keys(line)) assert.ok(fields.required.includes(key) || fields.optional.includes(key), `${line['type']} has extra field ${key}`);
}

/** Reads NDJSON lines off a streaming response; `next()` is undefined once the server ended it. */
function ndjson(response: Response) {
  assert.ok(response.body);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const read = async (): Promise<Line | undefined> => {
    for (;;) {
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const line = JSON.parse(text) as Line;
        assertSpecShape(line);
        return line;
      }
      if (ended) return undefined;
      const chunk = await reader.read();
      if (chunk.done) ended = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    next: (timeoutMs = 10_000) =>
      Promise.race([read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no line within ${timeoutMs} ms`)), timeoutMs).unref())]),
    async take(count: number): Promise<Line[]> {
      const lines: Line[] = [];
      for (let i = 0; i < count; i++) {
        const line = await this.next();
        assert.ok(line, `the stream ended after ${lines.length} of ${count} lines: ${JSON.stringify(lines)}`);
        lines.push(line);
      }
      return lines;
    },
    async rest(): Promise<Line[]> {
      const lines: Line[] = [];
      for (let line = await this.next(); line; line = await this.next()) lines.push(line);
      return lines;
    },
  };
}

/** A short, readable form of a line, to compare whole stories at once. */
function brief(line: Line): string {
  switch (line['type']) {
    case 'log':
      return `log ${line['job_id']} ${line['line']}`;
    case 'annotation':
      return `annotation ${line['job_id']} ${line['level']} ${line['message']}`;
    case 'run_accepted':
      return `run_accepted ${line['queued_jobs']}`;
    case 'job_completed':
      return `job_completed ${line['job_id']} ${line['status']} ${JSON.stringify(line['outputs'])}`;
    default:
      return [line['type'], line['job_id'], line['status'], line['reason']].filter((part) => part !== undefined).join(' ');
  }
}

describe('engine routes over HTTP (SQLite)', () => {
  it('events.ndjson: a snapshot, then the live story in commit order, ending with the run', async (t) => {
    const { host, engine, reporting, auth } = await engineHost(t);
    const base = await host.start();
    const run = await engine.createRun(runInput([job('build'), job('test', { needs: ['build'] })]));
    const [build, test] = (await engine.listJobs(run.id)).map((j) => j.id);
    assert.ok(build !== undefined && test !== undefined);

    const response = await fetch(`${base}/api/v1/runs/${run.id}/events.ndjson`, { headers: auth });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
    const stream = ndjson(response);
    const snapshot = await stream.take(6);
    assert.deepEqual(snapshot.map(brief), [
      'run_status queued',
      `job_status ${build} queued`,
      `job_status ${test} pending needs`,
      `job_status ${build} queued`,
      'run_status queued',
      'run_accepted 1',
    ]);
    assert.ok(snapshot.every((line) => line['run_id'] === run.id));

    const runner = testRunner(engine);
    const first = (await runner.take()) as Assignment;
    const runnerId = runner.identity.runnerId;
    await reporting.appendLog(build, runnerId, { seq: 1, stepNumber: 1, lines: ['compiling', 'linking'] });
    await reporting.addAnnotations(build, runnerId, [{ level: 'warning', message: 'slow test', file: 'a.ts', startLine: 7 }]);
    await engine.completeJob(first.job.id, runnerId, { outcome: 'success', outputs: { artifact: 'app.tgz' } });
    await runner.take();
    await reporting.appendLog(test, runnerId, { lines: ['1 passing'] });
    await engine.completeJob(test, runnerId, { outcome: 'success' });

    const live = await stream.rest();
    assert.deepEqual(live.map(brief), [
      `job_status ${build} in_progress`,
      'run_status in_progress',
      `log ${build} compiling`,
      `log ${build} linking`,
      `annotation ${build} warning slow test`,
      `job_status ${build} success`,
      `job_completed ${build} success {"artifact":"app.tgz"}`,
      `job_status ${test} queued`,
      `job_status ${test} in_progress`,
      `log ${test} 1 passing`,
      `job_status ${test} success`,
      `job_completed ${test} success {}`,
      'run_status success',
    ]);
    assert.deepEqual(live.find((line) => line['type'] === 'annotation'), {
      type: 'annotation', run_id: run.id, job_id: build, level: 'warning', message: 'slow test', file: 'a.ts', line: 7,
    });
  });

  it('reconnecting yields a fresh snapshot; for a finished run it ends right after', async (t) => {
    const { host, engine, reporting, auth } = await engineHost(t);
    const base = await host.start();
    const run = await engine.createRun(runInput([job('only')]));
    const runner = testRunner(engine);
    const taken = (await runner.take()) as Assignment;
    await reporting.appendLog(taken.job.id, runner.identity.runnerId, { lines: ['not replayed'] });
    await engine.completeJob(taken.job.id, runner.identity.runnerId, { outcome: 'failure', reason: 'exit code 1' });

    for (let attempt = 0; attempt < 2; attempt++) {
      const lines = await ndjson(await fetch(`${base}/api/v1/runs/${run.id}/events.ndjson`, { headers: auth })).rest();
      const id = taken.job.id;
      assert.deepEqual(lines.map(brief), [
        'run_status failure',
        `job_status ${id} failure exit code 1`,
        `job_status ${id} queued`,
        'run_status queued',
        'run_accepted 1',
        `job_status ${id} in_progress`,
        'run_status in_progress',
        `job_status ${id} failure exit code 1`,
        `job_completed ${id} failure {}`,
        'run_status failure',
      ]);
    }
  });

  it('the stream closes when the server shuts down, and after 5 minutes with nothing to send', async (t) => {
    const { host, engine, notifier, clock, auth } = await engineHost(t);
    const base = await host.start();
    const run = await engine.createRun(runInput([job('waits-forever')]));

    const idle = ndjson(await fetch(`${base}/api/v1/runs/${run.id}/events.ndjson`, { headers: auth }));
    await idle.take(5);
    clock.advance(5 * 60_000);
    await notifier.notify(RUN_EVENTS_CHANNEL, String(run.id));
    assert.equal(await idle.next(), undefined, 'closed after 5 idle minutes');

    const open = ndjson(await fetch(`${base}/api/v1/runs/${run.id}/events.ndjson`, { headers: auth }));
    await open.take(5);
    const stopped = host.stop();
    assert.equal(await open.next(), undefined, 'closed by the shutdown');
    await stopped;
  });

  it('the scheduler worker advances runs announced to it and sweeps lost runners', async (t) => {
    const { host, engine, notifier, database, clock } = await engineHost(t);
    await host.start();
    const run = await engine.createRun(runInput([job('first'), job('second', { needs: ['first'] })]));
    const runner = testRunner(engine);
    const first = (await runner.take()) as Assignment;
    // Finished behind the engine's back (as another node might leave it): nobody advanced the run.
    const jobs = database.kysely.withTables<{ engine_jobs: { id: number; status: string; conclusion: string | null } }>();
    await jobs.updateTable('engine_jobs').set({ status: 'success', conclusion: 'success' }).where('id', '=', first.job.id).execute();
    const second = async () => (await engine.listJobs(run.id)).find((j) => j.jobKey === 'second');
    assert.equal((await second())?.status, 'pending');
    await notifier.notify(RUN_ADVANCE_CHANNEL, String(run.id));
    for (let i = 0; i < 100 && (await second())?.status !== 'queued'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await second())?.status, 'queued', 'advanced by the worker');

    const taken = (await runner.take()) as Assignment;
    clock.advance(61_000); // the runner's 60 s lease ran out without a renewal
    for (let i = 0; i < 150 && (await engine.getJob(taken.job.id))?.status === 'in_progress'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const lost = await engine.getJob(taken.job.id);
    assert.equal(lost?.status, 'failure', 'failed by the periodic sweep');
    assert.match(lost?.reason ?? '', /lost communication with the server/);
  });

  it('GET /runs/{id}: the run with its jobs, runner, times, outputs and steps', async (t) => {
    const { host, engine, reporting, auth } = await engineHost(t);
    const run = await engine.createRun(runInput([job('build'), job('test', { needs: ['build'] })]));
    const runner = testRunner(engine);
    const taken = (await runner.take()) as Assignment;
    await reporting.reportSteps(taken.job.id, runner.identity.runnerId, [{ number: 1, name: 'Run make', status: 'success', startedAt: Date.UTC(2030, 0, 1), completedAt: Date.UTC(2030, 0, 1, 0, 0, 2) }]);
    await engine.completeJob(taken.job.id, runner.identity.runnerId, { outcome: 'success', outputs: { version: '1.2.3' } });

    const response = await host.app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}`, headers: auth });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.id, run.id);
    assert.equal(body.status, 'in_progress');
    assert.deepEqual(body.workflow, { id: 'wf_test', name: 'CI', path: '.github/workflows/ci.yml' });
    assert.equal(body.created_at, '2030-01-01T00:00:00.000Z');
    const [build, test] = body.jobs;
    assert.deepEqual(
      { ...build, id: undefined },
      {
        id: undefined, run_id: run.id, name: 'build', job_key: 'build', status: 'success', conclusion: 'success', reason: null, attempt: 1,
        runner_id: 'id-runner-1', runner_name: 'runner-1', cancel_requested: false,
        created_at: '2030-01-01T00:00:00.000Z', queued_at: '2030-01-01T00:00:00.000Z', started_at: '2030-01-01T00:00:00.000Z', completed_at: '2030-01-01T00:00:00.000Z',
        outputs: { version: '1.2.3' },
        environment: null,
        steps: [{ number: 1, name: 'Run make', status: 'success', conclusion: 'success', started_at: '2030-01-01T00:00:00.000Z', completed_at: '2030-01-01T00:00:02.000Z' }],
      },
    );
    assert.equal(test.status, 'queued');
    assert.equal(test.runner_name, null);
  });

  it('GET /runs/{id}/logs: text lines, by job (id, name or key) and step', async (t) => {
    const { host, engine, reporting, auth } = await engineHost(t);
    const run = await engine.createRun(runInput([job('build'), job('lint')]));
    const runner = testRunner(engine);
    for (let a = await runner.take(); a; a = await runner.take()) {
      await reporting.appendLog(a.job.id, runner.identity.runnerId, { stepNumber: 1, lines: [`${a.job.name} step 1`] });
      await reporting.appendLog(a.job.id, runner.identity.runnerId, { stepNumber: 2, lines: [`${a.job.name} step 2`] });
    }
    const get = (query = '') => host.app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}/logs${query}`, headers: auth });
    const all = await get();
    assert.equal(all.statusCode, 200);
    assert.match(String(all.headers['content-type']), /^text\/plain/);
    assert.equal(all.body, 'build\tbuild step 1\nbuild\tbuild step 2\nlint\tlint step 1\nlint\tlint step 2\n');
    assert.equal((await get('?job=lint')).body, 'lint step 1\nlint step 2\n');
    const buildId = (await engine.listJobs(run.id)).find((j) => j.name === 'build')?.id;
    assert.equal((await get(`?job=${buildId}&step=2`)).body, 'build step 2\n');
    assert.equal((await get('?step=1')).body, 'build\tbuild step 1\nlint\tlint step 1\n');
    const missing = await get('?job=deploy');
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { code: 'job_not_found', message: `run ${run.id} has no job 'deploy' (its jobs: build, lint)` });
  });

  it('unknown runs are 404 and malformed ids or queries are 400 with a message, never 500', async (t) => {
    const { host, engine, auth } = await engineHost(t);
    const run = await engine.createRun(runInput([job('a')]));
    const call = (url: string, method: 'GET' | 'POST' = 'GET') => host.app.inject({ method, url, headers: auth });
    for (const url of ['/api/v1/runs/424242', '/api/v1/runs/424242/logs', '/api/v1/runs/424242/events.ndjson']) {
      const response = await call(url);
      assert.equal(response.statusCode, 404, url);
      assert.deepEqual(response.json(), { code: 'run_not_found', message: 'run 424242 does not exist' });
    }
    for (const url of ['/api/v1/runs/abc', '/api/v1/runs/0/logs', '/api/v1/runs/1.5/events.ndjson', '/api/v1/runs/99999999999999999999']) {
      const response = await call(url);
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json(), { code: 'invalid_request', message: 'the run id must be a positive whole number, e.g. /api/v1/runs/42' });
    }
    const badStep = await call(`/api/v1/runs/${run.id}/logs?step=first`);
    assert.equal(badStep.statusCode, 400);
    assert.equal(badStep.json().message, 'step must be a step number, 0 or more');
    const unknownParameter = await call(`/api/v1/runs/${run.id}/logs?jobs=a`);
    assert.equal(unknownParameter.statusCode, 400);
    assert.equal(unknownParameter.json().message, "unknown querystring parameter 'jobs'");
    const badJob = await call(`/api/v1/runs/${run.id}/jobs/x/cancel`, 'POST');
    assert.equal(badJob.statusCode, 400);
    assert.match(badJob.json().message, /job id must be a positive whole number/);
    const noToken = await host.app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}` });
    assert.equal(noToken.statusCode, 401);
  });

  it('cancel routes answer 202 with the run or job, 404 for strangers, 409 once finished', async (t) => {
    const { host, engine, auth } = await engineHost(t);
    const run = await engine.createRun(runInput([job('long'), job('after', { needs: ['long'] }), job('other')]));
    const runner = testRunner(engine);
    const running = (await runner.take()) as Assignment;
    const post = (url: string) => host.app.inject({ method: 'POST', url, headers: auth });

    const other = (await engine.listJobs(run.id)).find((j) => j.jobKey === 'other');
    assert.ok(other);
    const jobCancel = await post(`/api/v1/runs/${run.id}/jobs/${other.id}/cancel`);
    assert.equal(jobCancel.statusCode, 202, jobCancel.body);
    assert.equal(jobCancel.json().id, other.id);
    assert.equal(jobCancel.json().status, 'cancelled');
    assert.equal((await post(`/api/v1/runs/${run.id}/jobs/${other.id}/cancel`)).json().code, 'job_completed');
    assert.equal((await post(`/api/v1/runs/${run.id}/jobs/424242/cancel`)).json().code, 'job_not_found');

    const runCancel = await post(`/api/v1/runs/${run.id}/cancel`);
    assert.equal(runCancel.statusCode, 202, runCancel.body);
    const body = runCancel.json();
    assert.equal(body.cancel_requested, true);
    const long = body.jobs.find((j: { id: number }) => j.id === running.job.id);
    assert.equal(long.status, 'in_progress', 'a running job stops when its runner sees the request');
    assert.equal(long.cancel_requested, true);
    await engine.completeJob(running.job.id, runner.identity.runnerId, { outcome: 'cancelled' });
    assert.equal((await engine.getRun(run.id))?.status, 'cancelled');

    const again = await post(`/api/v1/runs/${run.id}/cancel`);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'run_completed');
    assert.equal((await post('/api/v1/runs/424242/cancel')).statusCode, 404);
  });
});
