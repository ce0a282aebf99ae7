import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileCommandError, SecretMasker, STEP_SUMMARY_LIMIT_BYTES, StepSummaryTooLargeError, parseKeyValueFile, parsePathFile, readStepSummary } from './index.js';

const linux = { platform: 'linux' } as const;
const windows = { platform: 'win32' } as const;

function failure(content: string, options = linux): FileCommandError {
  try {
    parseKeyValueFile(content, 'output', options);
  } catch (error) {
    assert.ok(error instanceof FileCommandError);
    return error;
  }
  assert.fail('expected a FileCommandError');
}

test('name=value lines: empty lines skipped, values keep every = after the first', () => {
  assert.deepEqual(parseKeyValueFile('\nMY_ENV=my value\n\nMY_ENV_2=\nA==abc\nB=def=ghi\nC=jkl=\n', 'env', linux), [
    { name: 'MY_ENV', value: 'my value' },
    { name: 'MY_ENV_2', value: '' },
    { name: 'A', value: '=abc' },
    { name: 'B', value: 'def=ghi' },
    { name: 'C', value: 'jkl=' },
  ]);
  assert.deepEqual(parseKeyValueFile('', 'env', linux), []);
  assert.deepEqual(parseKeyValueFile('\uFEFFX=1', 'env', linux), [{ name: 'X', value: '1' }]);
});

test('heredocs: the value is every line up to the delimiter line, without the last newline', () => {
  assert.deepEqual(parseKeyValueFile('MY_ENV<<EOF\nline one\nline two\nline three\nEOF\n', 'env', linux), [
    { name: 'MY_ENV', value: 'line one\nline two\nline three' },
  ]);
  assert.deepEqual(parseKeyValueFile('EMPTY<<EOF\nEOF\n', 'env', linux), [{ name: 'EMPTY', value: '' }]);
  assert.deepEqual(parseKeyValueFile('BLANK<<EOF\n\nEOF\n', 'env', linux), [{ name: 'BLANK', value: '' }]);
  assert.deepEqual(parseKeyValueFile('X<<EOF\nhello\n\nthree\n\nEOF', 'env', linux), [{ name: 'X', value: 'hello\n\nthree\n' }], 'delimiter on the last line without newline');
});

test('a heredoc value may hold other delimiters, = and << and the delimiter inside a line', () => {
  const content = ['A<<=EOF', 'hello', 'one', '=EOF', 'B<<<EOF', 'hello', 'two', '<EOF', 'C<<EOF', 'D<<OTHER', 'E=1', ' EOF', 'EOF EOF', 'EOF', ''].join('\n');
  assert.deepEqual(parseKeyValueFile(content, 'output', linux), [
    { name: 'A', value: 'hello\none' },
    { name: 'B', value: 'hello\ntwo' },
    { name: 'C', value: 'D<<OTHER\nE=1\n EOF\nEOF EOF' },
  ]);
});

test('a value line equal to the delimiter ends the value early; what follows must parse on its own', () => {
  const error = failure('JSON<<EOF\n{\nEOF\n}\nEOF\n');
  assert.equal(error.message, "Invalid format '}'");
  assert.equal(error.headline, "Unable to process file command 'output' successfully.");
});

test('missing delimiter, missing newline before EOF, bad format and empty names are errors', () => {
  assert.equal(failure('A<<EOF\nline\n').message, "Invalid value. Matching delimiter not found 'EOF'");
  assert.equal(failure('A<<EOF\nline').message, 'Invalid value. EOF marker missing new line.');
  assert.equal(failure('A<<EOF line one line two EOF').message, "Invalid value. Matching delimiter not found 'EOF line one line two EOF'");
  assert.equal(failure('just text').message, "Invalid format 'just text'");
  assert.equal(failure('=value').message, "Invalid format '=value'. Name must not be empty");
  assert.equal(failure('<<EOF\nx\nEOF\n').message, "Invalid format '<<EOF'. Name must not be empty and delimiter must not be empty");
  assert.equal(failure('NAME<<\nx\n').message, "Invalid format 'NAME<<'. Name must not be empty and delimiter must not be empty");
  assert.equal(failure('A=1\nbad').fileLabel, 'output');
});

test('CRLF: Windows ends lines at CRLF; elsewhere the CR stays in the line, as in the runner', () => {
  const content = 'A=1\r\nML<<EOF\r\nx\r\ny\r\nEOF\r\n';
  assert.deepEqual(parseKeyValueFile(content, 'env', windows), [
    { name: 'A', value: '1' },
    { name: 'ML', value: 'x\r\ny' },
  ]);
  assert.deepEqual(parseKeyValueFile(content, 'env', linux), [
    { name: 'A', value: '1\r' },
    { name: 'ML', value: 'x\r\ny\r' },
  ]);
  assert.equal(failure('ML<<EOF\nx\r\nEOF\r\n').message, "Invalid value. Matching delimiter not found 'EOF'");
  assert.deepEqual(parseKeyValueFile('ML<<EOF\nx\nEOF\n', 'env', windows), [{ name: 'ML', value: 'x' }], 'LF files work on Windows too');
});

test('GITHUB_PATH: one entry a line, any line ending, empty lines skipped, order kept', () => {
  assert.deepEqual(parsePathFile('\uFEFF/opt/a\n\n/opt/b\r\n/opt/c\r/opt/a\n'), ['/opt/a', '/opt/b', '/opt/c', '/opt/a']);
  assert.deepEqual(parsePathFile(''), []);
  assert.deepEqual(parsePathFile(' /with space \n'), [' /with space ']);
});

test('step summary: missing or empty gives undefined; content is returned; over 1 MiB is refused', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-summary-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.equal(await readStepSummary(join(dir, 'missing.md')), undefined);
  assert.equal(await readStepSummary(join(dir, 'missing', 'deeper.md')), undefined);
  const empty = join(dir, 'empty.md');
  await writeFile(empty, '');
  assert.equal(await readStepSummary(empty), undefined);
  const file = join(dir, 'summary.md');
  await writeFile(file, '# Title\r\nsecret: hunter22\nlast');
  assert.equal(await readStepSummary(file), '# Title\r\nsecret: hunter22\nlast');
  const masker = new SecretMasker();
  masker.add('hunter22');
  assert.equal(await readStepSummary(file, masker), '# Title\nsecret: ***\nlast\n');
  const exact = join(dir, 'exact.md');
  await writeFile(exact, 'x'.repeat(STEP_SUMMARY_LIMIT_BYTES));
  assert.equal((await readStepSummary(exact))?.length, STEP_SUMMARY_LIMIT_BYTES);
  const big = join(dir, 'big.md');
  await writeFile(big, 'x'.repeat(STEP_SUMMARY_LIMIT_BYTES + 3000));
  await assert.rejects(readStepSummary(big), (error: unknown) => {
    assert.ok(error instanceof StepSummaryTooLargeError);
    assert.equal(
      error.message,
      '$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got 1026k. For more information see: https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary',
    );
    return true;
  });
});
