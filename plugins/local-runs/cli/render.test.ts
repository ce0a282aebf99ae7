import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderFrame } from './render-frame.js';
import { changeLines, duration, summaryLines } from './render-lines.js';
import { applyEvent, applyRunView, HOLD_MS, newRunState, releaseOverdue, type RunChange, type RunState } from './run-state.js';
import type { FeedEvent, JobWire, RunWire } from './wire-types.js';

const T0 = Date.UTC(2030, 0, 1);
const at = (seconds: number) => T0 + seconds * 1000;
const iso = (seconds: number) => new Date(at(seconds)).toISOString();

function job(id: number, name: string, extra: Partial<JobWire> = {}): JobWire {
  return { id, name, job_key: name, status: 'queued', conclusion: null, reason: null, started_at: null, completed_at: null, steps: [], ...extra };
}

function view(jobs: JobWire[], extra: Partial<RunWire> = {}): RunWire {
  return { id: 12, workflow: { name: 'CI', path: '.github/workflows/ci.yml' }, status: 'in_progress', conclusion: null, reason: null, started_at: iso(0), completed_at: null, jobs, ...extra };
}

/** Folds events and answers the plain lines they print. */
function fold(state: RunState, events: FeedEvent[], now = at(1)): string[] {
  return events.flatMap((event) => applyEvent(state, event, now).flatMap((change) => changeLines(state, change)));
}

describe('svc run: following a run', () => {
  it('a job its environment holds says why and how to approve it, and goes on once approved', () => {
    const state = newRunState(12, 'CI');
    applyRunView(state, view([job(1, 'build'), job(2, 'deploy')]));
    const waiting = 'waiting for approval: environment production requires a review (svc approve 12 --job 2)';
    const lines = fold(state, [
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: 'needs' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: waiting },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: waiting },
    ]);
    assert.deepEqual(lines, ['job deploy: pending (needs)', `job deploy: pending (${waiting})`], 'a repeated reason is not news');
    assert.ok(renderFrame(state, at(2), { columns: 200, rows: 20 }).includes(`○ deploy  pending: ${waiting}`));
    const after = fold(state, [
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: 'approved for environment production (admin_override by system)' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'queued' },
    ]);
    assert.deepEqual(after, ['job deploy: pending (approved for environment production (admin_override by system))', 'job deploy: queued']);
    const reconnected = fold(state, [
      { type: 'job_status', run_id: 12, job_id: 2, status: 'queued' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: waiting },
    ]);
    assert.deepEqual(reconnected, [], 'a reconnect repeats nothing already told');
  });

  it('prints each status change once, in the order the feed tells them, with job names from the run view', () => {
    const state = newRunState(12, '.github/workflows/ci.yml');
    applyRunView(state, view([job(1, 'build'), job(2, 'test')]));
    const lines = fold(state, [
      { type: 'run_status', run_id: 12, status: 'queued' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'queued' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending', reason: 'needs' },
      { type: 'run_accepted', run_id: 12, queued_jobs: 1 },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'in_progress' },
      { type: 'run_status', run_id: 12, status: 'in_progress' },
      { type: 'log', run_id: 12, job_id: 1, line: '2030-01-01T00:00:01.1234567Z \x1b[36;1mmake\x1b[0m' },
      { type: 'annotation', run_id: 12, job_id: 1, level: 'warning', message: 'unused', file: 'a.c', line: 3 },
      { type: 'job_completed', run_id: 12, job_id: 1, status: 'success', outputs: {} },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'success' },
      { type: 'run_status', run_id: 12, status: 'success' },
    ]);
    assert.deepEqual(lines, [
      'run 12: queued',
      'job build: queued',
      'job test: pending (needs)',
      'job build: in_progress',
      'run 12: in_progress',
      'build | make',
      'build | warning: a.c:3: unused',
      'job build: success',
    ]);
  });

  it("prints an annotation where its step logged it, not when the timeline told it (before the step's lines)", () => {
    const state = newRunState(12, 'CI');
    applyRunView(state, view([job(1, 'build'), job(2, 'lint')]));
    const log = (job_id: number, line: string): FeedEvent => ({ type: 'log', run_id: 12, job_id, line: `2030-01-01T00:00:01.0000000Z ${line}` });
    const lines = fold(state, [
      { type: 'job_status', run_id: 12, job_id: 1, status: 'in_progress' },
      // The timeline update carrying the step's issues reaches the feed before the step's log page.
      { type: 'annotation', run_id: 12, job_id: 1, level: 'error', message: 'it broke\nsecond line', file: 'src/a.c', line: 3 },
      { type: 'annotation', run_id: 12, job_id: 1, level: 'error', message: 'Process completed with exit code 1.' },
      { type: 'annotation', run_id: 12, job_id: 1, level: 'notice', message: 'only on the timeline' },
      log(1, 'before the error'),
      log(1, '##[error]it broke'),
      log(1, 'second line'),
      log(1, 'after the error'),
      log(1, '##[error]Process completed with exit code 1.'),
      // The other order: the line first (held), its annotation after; then a line no annotation follows (held to the job's end).
      log(2, '##[warning]deprecated'),
      { type: 'annotation', run_id: 12, job_id: 2, level: 'warning', message: 'deprecated' },
      log(2, '##[warning]located later'),
      { type: 'annotation', run_id: 12, job_id: 2, level: 'warning', message: 'located later', file: 'b.ts' },
      log(2, '##[notice]capped, never annotated'),
      { type: 'job_status', run_id: 12, job_id: 1, status: 'failure' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'success' },
    ]);
    assert.deepEqual(lines, [
      'job build: in_progress',
      'build | before the error',
      'build | error: src/a.c:3: it broke',
      'build | second line',
      'build | after the error',
      'build | error: Process completed with exit code 1.',
      'lint | warning: deprecated',
      'lint | warning: b.ts: located later',
      'build | notice: only on the timeline',
      'job build: failure',
      'lint | notice: capped, never annotated',
      'job lint: success',
    ]);
    assert.deepEqual(state.jobs.get(1)?.log.slice(-2), ['after the error', 'error: Process completed with exit code 1.'], 'the live view shows them as annotations too');

    // Following a run that already ended: the snapshot's statuses come first, then the stored annotations.
    const late = newRunState(13, 'CI');
    applyRunView(late, view([job(1, 'build')], { id: 13 }));
    assert.deepEqual(
      fold(late, [
        { type: 'job_status', run_id: 13, job_id: 1, status: 'failure' },
        { type: 'annotation', run_id: 13, job_id: 1, level: 'error', message: 'boom' },
      ]),
      ['job build: failure', 'build | error: boom'],
    );
  });

  it('holds the lines after an annotated line until its annotation comes, at most HOLD_MS; a later location is told alone', () => {
    const state = newRunState(12, 'CI');
    applyRunView(state, view([job(1, 'lint')]));
    const log = (line: string): FeedEvent => ({ type: 'log', run_id: 12, job_id: 1, line: `2030-01-01T00:00:01.0000000Z ${line}` });
    const lines = (changes: RunChange[]) => changes.flatMap((change) => changeLines(state, change));
    assert.deepEqual(fold(state, [{ type: 'job_status', run_id: 12, job_id: 1, status: 'in_progress' }, log('linting'), log('##[error]missing semicolon'), log('lint done')], at(1)), ['job lint: in_progress', 'lint | linting']);
    assert.deepEqual(lines(releaseOverdue(state, at(1) + HOLD_MS - 1)), [], 'still waiting');
    assert.deepEqual(
      fold(state, [{ type: 'annotation', run_id: 12, job_id: 1, level: 'error', message: 'missing semicolon', file: 'src/app.c', line: 3 }, log('##[warning]never annotated'), log('next')], at(2)),
      ['lint | error: src/app.c:3: missing semicolon', 'lint | lint done'],
    );
    assert.deepEqual(lines(releaseOverdue(state, at(2) + HOLD_MS)), ['lint | warning: never annotated', 'lint | next']);
    assert.deepEqual(fold(state, [{ type: 'annotation', run_id: 12, job_id: 1, level: 'warning', message: 'never annotated', file: 'late.ts' }, log('after')], at(5)), ['lint | warning: late.ts: never annotated', 'lint | after']);
  });

  it('a snapshot that repeats older statuses after the current ones does not move a job back', () => {
    const state = newRunState(12, 'CI');
    applyRunView(state, view([job(1, 'build')]));
    const lines = fold(state, [
      { type: 'run_status', run_id: 12, status: 'in_progress' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'success' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'queued' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'in_progress' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'success' },
    ]);
    assert.deepEqual(lines, ['run 12: in_progress', 'job build: success']);
    assert.equal(state.jobs.get(1)?.status, 'success');
  });

  it('ends with each job conclusion and duration, then the run', () => {
    const state = newRunState(12, 'CI');
    fold(state, [
      { type: 'job_status', run_id: 12, job_id: 1, status: 'in_progress' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'pending' },
    ]);
    applyRunView(
      state,
      view([job(1, 'build', { conclusion: 'failure', started_at: iso(0), completed_at: iso(75) }), job(2, 'deploy (prod)', { conclusion: 'skipped' })], { conclusion: 'failure', completed_at: iso(80) }),
    );
    fold(state, [{ type: 'run_status', run_id: 12, status: 'failure' }]);
    assert.deepEqual(summaryLines(state, at(90)), ['jobs:', '  build          failure    1m15s', '  deploy (prod)  skipped    -', 'run 12: failure in 1m20s']);
  });

  it('formats durations, running ones with a +', () => {
    assert.deepEqual([duration(undefined, undefined, at(5)), duration(at(0), at(9), at(20)), duration(at(0), undefined, at(61)), duration(at(0), at(3725), at(0))], ['-', '9s', '1m01s+', '1h02m']);
  });
});

describe('svc run: the live view on a terminal', () => {
  it('shows jobs with symbols, the running job steps and last log lines, cut to the terminal', () => {
    const state = newRunState(12, 'CI');
    const steps = [
      { number: 1, name: 'Set up job', status: 'success', conclusion: 'success', started_at: iso(0), completed_at: iso(1) },
      { number: 2, name: 'Run make', status: 'in_progress', conclusion: null, started_at: iso(1), completed_at: null },
      { number: 3, name: 'Upload', status: 'pending', conclusion: null, started_at: null, completed_at: null },
    ];
    fold(state, [
      { type: 'run_status', run_id: 12, status: 'in_progress' },
      { type: 'job_status', run_id: 12, job_id: 1, status: 'success' },
      { type: 'job_status', run_id: 12, job_id: 2, status: 'in_progress' },
      { type: 'job_status', run_id: 12, job_id: 3, status: 'pending', reason: 'needs' },
      ...['one', 'two', 'three', 'four', 'five', 'six'].map((line): FeedEvent => ({ type: 'log', run_id: 12, job_id: 2, line })),
    ]);
    applyRunView(
      state,
      view([job(1, 'lint', { conclusion: 'success', started_at: iso(0), completed_at: iso(4) }), job(2, 'build', { status: 'in_progress', started_at: iso(0), steps }), job(3, 'deploy')]),
    );
    assert.deepEqual(renderFrame(state, at(7), { columns: 200, rows: 40 }), [
      'run 12 · CI · in_progress · 7s+',
      '✓ lint  4s',
      '● build  7s+',
      '    ✓ Set up job  1s',
      '    ● Run make  6s+',
      '    ○ Upload',
      '      │ two',
      '      │ three',
      '      │ four',
      '      │ five',
      '      │ six',
      '○ deploy  pending: needs',
    ]);
    const small = renderFrame(state, at(7), { columns: 12, rows: 5 });
    assert.deepEqual(small, ['run 12 · CI…', '✓ lint  4s', '● build  7s+', '… 9 more li…']);
    state.cancelling = true;
    assert.match(renderFrame(state, at(7), { columns: 200, rows: 40 })[0] ?? '', /in_progress, cancelling \(Ctrl-C again to stop waiting\)/);
  });
});
