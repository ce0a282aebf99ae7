import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { formatArguments, resolveShell, splitArguments, writeScriptFile } from './index.js';

test('the script file is <uuid><extension> in the temp directory, UTF-8 without BOM, fixed up', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-script-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pwsh = resolveShell({ shell: 'pwsh', defaultShell: undefined, platform: 'linux', which: () => '/usr/bin/pwsh' });
  const path = await writeScriptFile(dir, 'Write-Host "héllo"', pwsh);
  assert.match(basename(path), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.ps1$/);
  const bytes = await readFile(path);
  assert.notDeepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(bytes.toString('utf8'), `$ErrorActionPreference = 'stop'\nWrite-Host "héllo"\nif ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }`);
  const bash = resolveShell({ shell: 'bash', defaultShell: undefined, platform: 'linux', which: () => '/bin/bash' });
  const second = await writeScriptFile(dir, 'echo hi', bash);
  assert.ok(second.endsWith('.sh'));
  assert.equal(await readFile(second, 'utf8'), 'echo hi');
  const custom = resolveShell({ shell: 'perl {0}', defaultShell: undefined, platform: 'linux', which: () => '/usr/bin/perl' });
  assert.match(basename(await writeScriptFile(dir, 'print 1', custom)), /^[0-9a-f-]{36}$/);
  assert.equal((await readdir(dir)).length, 3);
});

test('formatArguments is .NET string.Format with one argument', () => {
  assert.equal(formatArguments('-e {0}', '/x'), '-e /x');
  assert.equal(formatArguments('{0} {0}', 'a'), 'a a');
  assert.equal(formatArguments('{{{0}}}', 'a'), '{a}');
  assert.equal(formatArguments('[{0,4}][{0,-4}][{0:x}]', 'a'), '[   a][a   ][a]');
  assert.throws(() => formatArguments('{ 0}', 'a'), /Input string was not in a correct format/);
  assert.throws(() => formatArguments('a } b', 'a'), /Input string was not in a correct format/);
  assert.throws(() => formatArguments('{0', 'a'), /Input string was not in a correct format/);
  assert.throws(() => formatArguments('{1}', 'a'), /Index \(zero based\)/);
});

test('splitArguments splits as .NET does on Unix', () => {
  assert.deepEqual(splitArguments('  a\tb   c  '), ['a', 'b', 'c']);
  assert.deepEqual(splitArguments('-command ". \'/t/x.ps1\'"'), ['-command', ". '/t/x.ps1'"]);
  assert.deepEqual(splitArguments('"a b"c d'), ['a bc', 'd']);
  assert.deepEqual(splitArguments('"say ""hi"""'), ['say "hi"']);
  assert.deepEqual(splitArguments('a\\\\b \\"q\\" c\\\\\\"d'), ['a\\\\b', '"q"', 'c\\"d']);
  assert.deepEqual(splitArguments('"a\\\\" b'), ['a\\', 'b']);
  assert.deepEqual(splitArguments('""'), ['']);
  assert.deepEqual(splitArguments(''), []);
});
