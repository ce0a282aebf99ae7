import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogMasker } from '../reporting/index.js';
import { RecordContext } from './record-context.js';
import { RecordingReporter } from './test-support.js';

function setup(debug = false) {
  const masker = new LogMasker();
  masker.add('topsecret');
  const reporter = new RecordingReporter(masker);
  let tick = 0;
  const now = () => new Date(Date.UTC(2030, 0, 1, 0, 0, tick++));
  const record = new RecordContext({ id: 'a1', parentId: 'job', type: 'Task', name: 'Run topsecret build', refName: '__run', order: 3, stepType: 'run' }, { reporter, masker, debug, now });
  return { record, reporter };
}

describe('a timeline record', () => {
  it('goes pending, inProgress, completed with times, result and 100 %', () => {
    const { record, reporter } = setup();
    assert.equal(reporter.records.get('a1')?.state, 'pending');
    record.start();
    assert.equal(reporter.records.get('a1')?.state, 'inProgress');
    record.result = 'failed';
    assert.equal(record.complete(), 'failed');
    const done = reporter.records.get('a1');
    assert.deepEqual([done?.state, done?.result, done?.percentComplete, done?.order, done?.parentId], ['completed', 'failed', 100, 3, 'job']);
    assert.ok(done?.startTime && done.finishTime && done.finishTime > done.startTime);
  });

  it('issues: masked, tagged with the step number and log line, at most 10 per type (the rest still logged)', () => {
    const { record, reporter } = setup();
    record.write('first line');
    record.error('failed with topsecret', { file: 'src/a.ts', line: 3, col: 5, title: 't' });
    const issue = reporter.records.get('a1')?.issues[0];
    assert.deepEqual(issue, {
      type: 'error',
      message: 'failed with ***',
      category: 'General',
      data: { file: 'src/a.ts', line: '3', col: '5', title: 't', stepNumber: '3', logFileLineNumber: '2' },
    });
    for (let i = 0; i < 12; i++) record.warning(`w${i}`);
    const stored = reporter.records.get('a1');
    assert.equal(stored?.warningCount, 10);
    assert.equal(stored?.issues.filter((i) => i.type === 'warning').length, 10);
    assert.ok(reporter.lines.get('a1')?.includes('##[warning]w11'));
    record.addIssue('error', 'x'.repeat(5000), { writeToLog: false });
    assert.equal(reporter.records.get('a1')?.issues.at(-1)?.message.length, 4096);
  });

  it('debug lines only with step debug on', () => {
    const off = setup(false);
    off.record.debug('hidden');
    assert.equal(off.reporter.lines.get('a1'), undefined);
    const on = setup(true);
    on.record.debug('shown');
    assert.deepEqual(on.reporter.lines.get('a1'), ['##[debug]shown']);
  });
});
