import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RUN_EVENTS_CHANNEL, type Assignment, type Reporting, type RunEvent } from '../../core/engine/index.js';
import { isSvcError } from '../../core/kernel/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { testRunner } from '../support/test-runner.js';

/** Rejects with a kernel error of this code. */
async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error) => {
    assert.ok(isSvcError(error), `expected an SvcError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return true;
  });
}

async function collect(reporting: Reporting, runId: number, filter = {}) {
  const lines = [];
  for await (const line of reporting.readLogs(runId, filter)) lines.push(line);
  return lines;
}

for (const backend of ENGINE_BACKENDS) {
  describe(`reporting on ${backend.kind}`, { skip: backend.skip }, () => {
    async function started(t: Parameters<typeof engineFixture>[0]) {
      const fixture = await engineFixture(t, backend.kind);
      const run = await fixture.engine.createRun(runInput([job('build'), job('test', { needs: ['build'] })]));
      const runner = testRunner(fixture.engine);
      const assignment = (await runner.take()) as Assignment;
      assert.ok(assignment);
      return { ...fixture, run, runner, assignment, runnerId: runner.identity.runnerId };
    }

    it('upserts steps: a repeated report changes nothing, a late one never moves a step back', async (t) => {
      const { reporting, assignment, runnerId, run, clock } = await started(t);
      const jobId = assignment.job.id;
      const t0 = clock.now();
      const first = [
        { number: 1, name: 'Set up job', status: 'success' as const, startedAt: t0, completedAt: t0 + 10 },
        { number: 2, name: 'Run tests', status: 'in_progress' as const, startedAt: t0 + 10 },
      ];
      assert.equal(await reporting.reportSteps(jobId, runnerId, first), 2);
      assert.equal(await reporting.reportSteps(jobId, runnerId, first), 0, 'the same report again writes nothing');

      assert.equal(await reporting.reportSteps(jobId, runnerId, [{ number: 2, name: 'Run tests', status: 'failure', completedAt: t0 + 99 }]), 1);
      // Arrives late: the step already finished, and keeps its result.
      assert.equal(await reporting.reportSteps(jobId, runnerId, [{ number: 2, name: 'Run tests', status: 'in_progress' }]), 0);

      const steps = await reporting.listSteps(run.id);
      assert.deepEqual(
        steps.map((s) => [s.jobId, s.number, s.name, s.status, s.conclusion, s.startedAt, s.completedAt]),
        [
          [jobId, 1, 'Set up job', 'success', 'success', t0, t0 + 10],
          [jobId, 2, 'Run tests', 'failure', 'failure', t0 + 10, t0 + 99],
        ],
      );
    });

    it('accepts reports only from the runner that holds the job', async (t) => {
      const { reporting, assignment, run, engine } = await started(t);
      const jobId = assignment.job.id;
      const step = [{ number: 1, name: 'x', status: 'in_progress' as const }];
      await rejectsWith(reporting.reportSteps(jobId, 'id-someone-else', step), 'job_not_held', /not held by runner 'id-someone-else'/);
      await rejectsWith(reporting.appendLog(jobId, 'id-someone-else', { seq: 1, lines: ['x'] }), 'job_not_held');
      await rejectsWith(reporting.addAnnotations(jobId, 'id-someone-else', [{ level: 'error', message: 'x' }]), 'job_not_held');
      await rejectsWith(reporting.appendLog(999_999, 'id-runner-1', { lines: ['x'] }), 'job_not_found');
      // A job nobody acquired yet is nobody's.
      const waiting = (await engine.listJobs(run.id)).find((j) => j.jobKey === 'test');
      assert.ok(waiting);
      await rejectsWith(reporting.reportSteps(waiting.id, 'id-runner-1', step), 'job_not_held');
      assert.deepEqual(await collect(reporting, run.id), []);
    });

    it('stores each chunk as a blob with its index row and reads the lines back in order', async (t) => {
      const { reporting, assignment, runnerId, run, blobs, database } = await started(t);
      const jobId = assignment.job.id;
      const a1 = await reporting.appendLog(jobId, runnerId, { seq: 1, lines: ['setting up'] });
      assert.deepEqual(a1, { seq: 1, acknowledged: 1, firstLine: 1, lineCount: 1, duplicate: false });
      const a2 = await reporting.appendLog(jobId, runnerId, { seq: 2, stepNumber: 1, lines: ['npm test', 'ok 1\nok 2\n'] });
      assert.deepEqual(a2, { seq: 2, acknowledged: 2, firstLine: 2, lineCount: 3, duplicate: false }, 'embedded line breaks make separate lines');
      const a3 = await reporting.appendLog(jobId, runnerId, { stepNumber: 2, lines: ['done ✓'] });
      assert.equal(a3.seq, 3, 'without a number the chunk takes the next one');

      const info = await blobs.stat(`logs/${run.id}/${jobId}/2.log`);
      assert.equal(info?.size, Buffer.byteLength('npm test\nok 1\nok 2\n'));
      const rows = await database.kysely
        .withTables<{ engine_log_chunks: { job_id: number; seq: number; first_line: number; line_count: number; bytes: number; step_number: number | null } }>()
        .selectFrom('engine_log_chunks')
        .select(['seq', 'first_line', 'line_count', 'bytes', 'step_number'])
        .where('job_id', '=', jobId)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        rows.map((r) => [Number(r.seq), Number(r.first_line), Number(r.line_count), Number(r.bytes), r.step_number === null ? null : Number(r.step_number)]),
        [
          [1, 1, 1, 11, null],
          [2, 2, 3, 19, 1],
          [3, 5, 1, Buffer.byteLength('done ✓\n'), 2],
        ],
      );

      const all = await collect(reporting, run.id);
      assert.deepEqual(
        all.map((l) => [l.stepNumber, l.lineNumber, l.line]),
        [
          [null, 1, 'setting up'],
          [1, 2, 'npm test'],
          [1, 3, 'ok 1'],
          [1, 4, 'ok 2'],
          [2, 5, 'done ✓'],
        ],
      );
      assert.deepEqual((await collect(reporting, run.id, { stepNumber: 1 })).map((l) => l.line), ['npm test', 'ok 1', 'ok 2']);
      assert.deepEqual(await collect(reporting, run.id, { jobId: jobId + 1 }), [], 'the other job has no lines');
    });

    it('a resent chunk is acknowledged again and stored once; a gap is refused with where to resume', async (t) => {
      const { reporting, assignment, runnerId, run } = await started(t);
      const jobId = assignment.job.id;
      await reporting.appendLog(jobId, runnerId, { seq: 1, lines: ['one'] });
      await reporting.appendLog(jobId, runnerId, { seq: 2, lines: ['two', 'three'] });
      // The runner lost the answer to chunk 2 and reconnects: it sends 2 again, then 3.
      const again = await reporting.appendLog(jobId, runnerId, { seq: 2, lines: ['two', 'three'] });
      assert.deepEqual(again, { seq: 2, acknowledged: 2, firstLine: 2, lineCount: 2, duplicate: true });
      await reporting.appendLog(jobId, runnerId, { seq: 3, lines: ['four'] });
      assert.deepEqual((await collect(reporting, run.id)).map((l) => l.line), ['one', 'two', 'three', 'four']);

      await assert.rejects(reporting.appendLog(jobId, runnerId, { seq: 6, lines: ['six'] }), (error) => {
        assert.ok(isSvcError(error));
        assert.equal(error.status, 409);
        assert.equal(error.code, 'log_chunk_gap');
        assert.deepEqual(error.details, { acknowledged: 3, expected: 4 });
        assert.match(error.message, /resend from chunk 4/);
        return true;
      });
      await rejectsWith(reporting.appendLog(jobId, runnerId, { seq: 0, lines: [] }), 'log_chunk_invalid');
    });

    it('wakes the run\'s event readers after a chunk is stored', async (t) => {
      const { reporting, assignment, runnerId, run, notifier } = await started(t);
      const heard: string[] = [];
      const unsubscribe = await notifier.subscribe(RUN_EVENTS_CHANNEL, (payload) => heard.push(payload));
      t.after(unsubscribe);
      await reporting.appendLog(assignment.job.id, runnerId, { lines: ['hello'] });
      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(heard, [String(run.id)]);
    });

    it('the feed interleaves status events and log lines in the order they were committed', async (t) => {
      const { reporting, engine, run, runner, runnerId, assignment } = await started(t);
      // Everything up to the first job's start is history; read on from there.
      const position = await reporting.feedPosition(run.id);
      assert.ok(position > 0);
      await reporting.appendLog(assignment.job.id, runnerId, { seq: 1, lines: ['building'] });
      await reporting.addAnnotations(assignment.job.id, runnerId, [{ level: 'warning', message: 'deprecated', file: 'src/a.ts', startLine: 3, title: 'Heads up' }]);
      await reporting.appendLog(assignment.job.id, runnerId, { seq: 2, lines: ['built'] });
      await engine.completeJob(assignment.job.id, runnerId, { outcome: 'success', outputs: { v: '1' } });
      const next = (await runner.take()) as Assignment;
      await reporting.appendLog(next.job.id, runnerId, { lines: ['testing'] });
      await engine.completeJob(next.job.id, runnerId, { outcome: 'success' });

      const events: RunEvent[] = [];
      for (let cursor = position, more = true; more; ) {
        const page = await reporting.readFeed(run.id, cursor, 3);
        events.push(...page.entries.map((e) => e.event));
        more = page.more || page.entries.length > 0;
        assert.ok(page.cursor >= cursor);
        cursor = page.cursor;
      }
      const story = events.map((e) => (e.type === 'log' ? `log ${e.job_id} ${e.line}` : e.type === 'annotation' ? `annotation ${e.level}` : 'status' in e ? `${e.type} ${'job_id' in e ? e.job_id : ''} ${e.status}`.replace('  ', ' ') : e.type));
      const build = assignment.job.id;
      const test = next.job.id;
      assert.deepEqual(story, [
        `log ${build} building`,
        'annotation warning',
        `log ${build} built`,
        `job_status ${build} success`,
        `job_completed ${build} success`,
        `job_status ${test} queued`,
        `job_status ${test} in_progress`,
        `log ${test} testing`,
        `job_status ${test} success`,
        `job_completed ${test} success`,
        'run_status success',
      ]);
      const annotation = events.find((e) => e.type === 'annotation');
      assert.deepEqual(annotation, { type: 'annotation', run_id: run.id, job_id: build, level: 'warning', message: 'deprecated', title: 'Heads up', file: 'src/a.ts', line: 3 });
      assert.equal(await reporting.feedPosition(run.id) > position, true);
    });

    it('annotations are rows and events committed together', async (t) => {
      const { reporting, assignment, runnerId, run, engine, database } = await started(t);
      const added = await reporting.addAnnotations(assignment.job.id, runnerId, [
        { level: 'error', message: 'boom', file: 'a.ts', startLine: 1, endLine: 2, startColumn: 3, endColumn: 4 },
        { level: 'notice', message: 'fyi' },
      ]);
      assert.equal(added, 2);
      const rows = await database.kysely.withTables<{ engine_annotations: { id: number; run_id: number; level: string; message: string; end_column: number | null } }>()
        .selectFrom('engine_annotations').select(['id', 'run_id', 'level', 'message', 'end_column']).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [Number(r.run_id), r.level, r.message, r.end_column === null ? null : Number(r.end_column)]), [
        [run.id, 'error', 'boom', 4],
        [run.id, 'notice', 'fyi', null],
      ]);
      assert.equal(Number(rows[1]?.id) - Number(rows[0]?.id), 1, 'ids from one sequence');
      const annotations = (await engine.events(run.id)).map((e) => e.event).filter((e) => e.type === 'annotation');
      assert.deepEqual(annotations, [
        { type: 'annotation', run_id: run.id, job_id: assignment.job.id, level: 'error', message: 'boom', file: 'a.ts', line: 1, end_line: 2, col: 3, end_col: 4 },
        { type: 'annotation', run_id: run.id, job_id: assignment.job.id, level: 'notice', message: 'fyi' },
      ]);
      await rejectsWith(reporting.addAnnotations(assignment.job.id, runnerId, [{ level: 'fatal' as never, message: 'x' }]), 'annotation_invalid');
    });

    it('a re-run attempt numbers its chunks from 1 again, keeps the old attempt readable and replaces the steps', async (t) => {
      const { reporting, engine, run, runnerId, assignment } = await started(t);
      const build = assignment.job.id;
      await reporting.appendLog(build, runnerId, { seq: 1, lines: ['attempt one'] });
      await reporting.reportSteps(build, runnerId, [{ number: 1, name: 'a', status: 'success' }, { number: 2, name: 'b', status: 'failure' }]);
      await engine.completeJob(build, runnerId, { outcome: 'failure' });
      assert.equal((await engine.getRun(run.id))?.status, 'failure');

      await engine.rerun(run.id, { kind: 'failed' });
      const second = testRunner(engine, 'runner-2');
      const again = (await second.take()) as Assignment;
      assert.equal(again.job.id, build);
      await rejectsWith(reporting.appendLog(build, runnerId, { seq: 2, lines: ['late'] }), 'job_not_held', undefined);
      const ack = await reporting.appendLog(build, second.identity.runnerId, { seq: 1, lines: ['attempt two'] });
      assert.deepEqual(ack, { seq: 1, acknowledged: 1, firstLine: 1, lineCount: 1, duplicate: false });
      await reporting.reportSteps(build, second.identity.runnerId, [{ number: 1, name: 'a', status: 'in_progress' }]);

      assert.deepEqual((await collect(reporting, run.id)).map((l) => l.line), ['attempt two']);
      assert.deepEqual((await collect(reporting, run.id, { attempt: 1 })).map((l) => l.line), ['attempt one']);
      assert.deepEqual((await reporting.listSteps(run.id)).map((s) => [s.number, s.status]), [[1, 'in_progress']]);
    });
  });
}
