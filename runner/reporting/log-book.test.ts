import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toAnnotation } from './annotations.js';
import { mergeWire } from './legacy/record-wire.js';
import { LogBook, logTimestamp, type LogPage } from './log-book.js';
import { LogMasker } from './log-masker.js';
import { PendingRecords } from './pending-records.js';

describe('log pages', () => {
  it('prefix every line with the round-trip UTC time and number the lines', () => {
    assert.equal(logTimestamp(new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 213))), '2026-08-21T10:15:03.2130000Z');
    const pages: LogPage[] = [];
    const book = new LogBook({ onPage: (page) => pages.push(page), now: () => new Date(Date.UTC(2026, 7, 21, 10, 15, 3, 213)) });
    assert.equal(book.append('r', 'hello'), 1);
    assert.equal(book.append('r', 'world'), 2);
    book.end('r');
    assert.deepEqual(pages, [{ recordId: 'r', number: 1, content: '2026-08-21T10:15:03.2130000Z hello\n2026-08-21T10:15:03.2130000Z world\n', lineCount: 2, last: true }]);
  });

  it('close a page once it reaches the page size, after the line that crossed it; the end marks the last', () => {
    const pages: LogPage[] = [];
    const book = new LogBook({ onPage: (page) => pages.push(page), pageBytes: 100 });
    for (let i = 0; i < 3; i++) book.append('r', 'x'.repeat(40));
    assert.deepEqual(pages.map((p) => [p.number, p.lineCount, p.last]), [[1, 2, false]]);
    book.end('r');
    assert.deepEqual(pages.map((p) => [p.number, p.lineCount, p.last]), [[1, 2, false], [2, 1, true]]);
    for (let i = 0; i < 2; i++) book.append('s', 'y'.repeat(40));
    book.end('s');
    assert.deepEqual(pages.slice(2).map((p) => [p.number, p.lineCount, p.last, p.content]), [[1, 2, false, pages[2]?.content], [2, 0, true, '']]);
    book.end('nothing-written');
    assert.equal(pages.length, 4, 'a record without lines has no log');
  });

  it('close aged pages of logs still open, each log by the age its page count allows', () => {
    const pages: LogPage[] = [];
    let now = 0;
    const book = new LogBook({ onPage: (page) => pages.push(page), now: () => new Date(now) });
    const maxAge = (pagesSoFar: number) => (pagesSoFar < 1 ? 1000 : 5000);
    book.append('r', 'one');
    now = 600;
    book.append('s', 'other');
    book.closeAgedPages(maxAge);
    assert.equal(pages.length, 0, 'nothing is a second old yet');
    now = 1000;
    book.append('r', 'two');
    book.closeAgedPages(maxAge);
    assert.deepEqual(pages.map((p) => [p.recordId, p.number, p.lineCount, p.last]), [['r', 1, 2, false]], 'the page opened at 0 went, the one opened at 600 stays');
    now = 2000;
    book.append('r', 'three');
    book.closeAgedPages(maxAge);
    assert.deepEqual(pages.map((p) => [p.recordId, p.number]), [['r', 1], ['s', 1]], "r's next page may wait 5 s");
    now = 7000;
    book.closeAgedPages(maxAge);
    book.closeAgedPages(maxAge);
    book.end('r');
    assert.deepEqual(pages.map((p) => [p.recordId, p.number, p.lineCount, p.last]), [['r', 1, 2, false], ['s', 1, 1, false], ['r', 2, 1, false], ['r', 3, 0, true]]);
    assert.equal(pages.map((p) => p.content).join('').split('\n').length - 1, 4, 'every line once');
  });
});

describe('masking', () => {
  it('masks values, their lines, and the regex hints of the message', () => {
    const masker = new LogMasker();
    masker.addSecret('  line-one\nline-two  ');
    masker.addRegex('tok\\.en\\ [0-9]+');
    masker.addRegex('(');
    masker.add('   ');
    assert.equal(masker.mask('a line-one b line-two c tok.en 42 d ('), 'a *** b *** c *** d ***');
    assert.equal(masker.containsSecret('nothing here'), false);
    assert.equal(masker.containsSecret('x line-two'), true);
  });
});

describe('annotations', () => {
  it('an issue as the runner converts it, the log line standing in for a missing location', () => {
    assert.deepEqual(toAnnotation({ type: 'warning', message: 'w', data: { file: 'a.ts', line: '3', col: '5', title: 'T', stepNumber: '2' } }), {
      level: 'warning',
      message: 'w',
      title: 'T',
      path: 'a.ts',
      startLine: 3,
      endLine: 3,
      startColumn: 5,
      endColumn: 5,
      stepNumber: 2,
      isInfrastructureIssue: false,
    });
    assert.equal(toAnnotation({ type: 'error', message: ' ', data: {} }), undefined);
    const fromLog = toAnnotation({ type: 'error', message: 'e', data: { logFileLineNumber: '12' } });
    assert.deepEqual([fromLog?.level, fromLog?.startLine, fromLog?.endLine], ['failure', 12, 12]);
  });
});

describe('record merging', () => {
  it('keeps older values under nulls, counts only grow, a non-empty issue list replaces', () => {
    const merged = mergeWire(
      { id: 'a', state: 'inProgress', warningCount: 2, issues: [{ m: 1 }], log: { id: 7 } },
      { id: 'a', state: 'completed', warningCount: 0, issues: [], log: null, result: 'succeeded' },
    );
    assert.deepEqual(merged, { id: 'a', state: 'completed', warningCount: 2, issues: [{ m: 1 }], log: { id: 7 }, result: 'succeeded' });
  });

  it('a failed batch goes back in front, under newer updates', () => {
    const pending = new PendingRecords<string[]>((older, newer) => [...older, ...newer]);
    pending.add('a', ['a1']);
    pending.add('b', ['b1']);
    const taken = pending.take(1);
    pending.add('a', ['a2']);
    pending.add('c', ['c1']);
    pending.putBack(taken);
    assert.deepEqual(pending.take(), [
      ['a', ['a1', 'a2']],
      ['b', ['b1']],
      ['c', ['c1']],
    ]);
  });
});
