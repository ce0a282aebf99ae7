import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { InputError } from '../../../core/kernel/cli/index.js';
import { parseDotenv } from './dotenv.js';
import { parseRunOptions } from './run-options.js';
import { MAX_SUPPLIED_VALUE_BYTES } from '../supplied-values.js';
import { describeRunValues, parseValueItems, resolveRunValues, type RunValueFlags } from './run-values.js';
import { submitBody } from './submit-local-run.js';

const NONE: RunValueFlags = { secrets: [], vars: [], inputs: [] };

async function tempFiles(t: TestContext, files: Readonly<Record<string, string>>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-run-values-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** The rejection, checked not to carry `secret` anywhere in its message. */
function refusesWithout(secret: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    assert.doesNotMatch(error.message, new RegExp(secret));
    assert.match(error.message, pattern);
    return true;
  };
}

describe('dotenv files (--secret-file, --var-file, --input-file)', () => {
  it('reads plain, exported, quoted and multi-line values; skips comments and blank lines', () => {
    const text = [
      '# deploy secrets',
      '',
      'PLAIN=abc def   ',
      'export EXPORTED=1',
      '  SPACED = value with spaces # a comment',
      'HASH=a#b',
      'EMPTY=',
      'EMPTY_COMMENT= # nothing',
      "SINGLE='literal \\n $HOME \"x\"'",
      'DOUBLE="line1\\nline2\\ttab \\"q\\" back\\\\slash" # trailing comment',
      'MULTI="first',
      'second',
      '"',
      "MULTI_SINGLE='a",
      "b'",
      'CRLF=x\r',
      'LAST=after',
    ].join('\n');
    const entries = parseDotenv(text, 'f');
    assert.deepEqual(
      Object.fromEntries(entries.map((entry) => [entry.name, entry.value])),
      {
        PLAIN: 'abc def',
        EXPORTED: '1',
        SPACED: 'value with spaces',
        HASH: 'a#b',
        EMPTY: '',
        EMPTY_COMMENT: '',
        SINGLE: 'literal \\n $HOME "x"',
        DOUBLE: 'line1\nline2\ttab "q" back\\slash',
        MULTI: 'first\nsecond\n',
        MULTI_SINGLE: 'a\nb',
        CRLF: 'x',
        LAST: 'after',
      },
    );
    // Lines are counted across multi-line values, for the messages.
    assert.deepEqual(entries.map((entry) => entry.line), [3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 16, 17]);
  });

  it('names the file and line of a problem, never the text of the line', () => {
    assert.throws(() => parseDotenv('A=1\nhunter2\n', '--secret-file file s'), refusesWithout('hunter2', /^--secret-file file s line 2: expected NAME=value$/));
    assert.throws(() => parseDotenv('=hunter2', 's'), refusesWithout('hunter2', /^s line 1: a value without a name/));
    assert.throws(() => parseDotenv('A=1\nB="hunter2\nmore', 's'), refusesWithout('hunter2', /^s line 2: the value of B opens a " quote that is never closed$/));
    assert.throws(() => parseDotenv("A='x' hunter2", 's'), refusesWithout('hunter2', /^s line 1: unexpected text after the closing ' of A's value/));
    assert.throws(() => parseDotenv('X="a\nb" hunter2', 's'), refusesWithout('hunter2', /^s line 2: unexpected text after the closing " of X's value/));
  });
});

describe('svc run --secret, --var, --input items', () => {
  it('upper-cases secret and variable names, keeps input names, keeps everything after the first =', () => {
    assert.deepEqual(parseValueItems('secret', ['token=a=b', 'Deploy_Key']), [{ name: 'TOKEN', value: 'a=b' }, { name: 'DEPLOY_KEY', typed: 'Deploy_Key' }]);
    assert.deepEqual(parseValueItems('var', 'region=eu'), [{ name: 'REGION', value: 'eu' }]);
    assert.deepEqual(parseValueItems('input', ['log-level=debug', 'x=']), [{ name: 'log-level', value: 'debug' }, { name: 'x', value: '' }]);
    assert.deepEqual(parseValueItems('secret', undefined), []);
  });

  it('refuses bad names before anything is read or sent, without quoting what may be a value', () => {
    assert.throws(() => parseValueItems('secret', ['1X=hunter2']), refusesWithout('hunter2', /^--secret: '1X' is not a secret name: use letters, digits and _/));
    assert.throws(() => parseValueItems('secret', ['github_token=hunter2']), refusesWithout('hunter2', /^--secret: secret names must not start with GITHUB_ \(reserved\): rename 'github_token'$/));
    // No `=`: the text is a name only if it looks like one; otherwise it is not repeated.
    assert.throws(() => parseValueItems('secret', ['hunter2!']), refusesWithout('hunter2', /^--secret: that is not a secret name/));
    assert.throws(() => parseValueItems('var', ['my-var=1']), /^InputError: --var: 'my-var' is not a variable name/);
    assert.throws(() => parseValueItems('var', ['REGION']), /--var needs NAME=VALUE \(e\.g\. --var REGION=eu-west-1\), got 'REGION'/);
    assert.throws(() => parseValueItems('input', ['level']), /--input needs NAME=VALUE \(e\.g\. --input level=debug\)/);
    assert.throws(() => parseValueItems('input', ['9x=1']), /--input: '9x' is not an input name/);
  });

  it('--input implies workflow_dispatch; with another --event it is refused', () => {
    const options = parseRunOptions({ input: ['level=debug'], secret: ['A=1'], varFile: 'vars.env' });
    assert.equal(options.event, 'workflow_dispatch');
    assert.deepEqual(options.values, { secrets: [{ name: 'A', value: '1' }], vars: [], inputs: [{ name: 'level', value: 'debug' }], varFile: 'vars.env' });
    assert.equal(parseRunOptions({ inputFile: 'in.json', event: 'workflow_dispatch' }).event, 'workflow_dispatch');
    assert.throws(() => parseRunOptions({ input: ['level=debug'], event: 'push' }), /--input and --input-file are for the workflow_dispatch event \(the event is push\)/);
    assert.throws(() => parseRunOptions({ secretFile: ' ' }), /--secret-file needs a dotenv file/);
  });
});

describe('run-supplied values resolved', () => {
  it('files first, flags over them, the last one winning; --secret NAME from the environment', async (t) => {
    const dir = await tempFiles(t, {
      '.secrets': 'export TOKEN=from-file\nKEY="multi\\nline"\n',
      '.vars': 'REGION=eu\nSIZE=small\n',
      'inputs.json': '{"level": "info", "count": 3, "dry": true}',
      'inputs.env': 'level=warning\n',
    });
    const flags: RunValueFlags = {
      secretFile: '.secrets',
      secrets: [{ name: 'TOKEN', value: 'from-flag' }, { name: 'FROM_ENV' }, { name: 'TOKEN', value: 'last' }],
      varFile: '.vars',
      vars: [{ name: 'SIZE', value: 'large' }],
      inputFile: 'inputs.json',
      inputs: [{ name: 'level', value: 'debug' }],
    };
    const values = await resolveRunValues(flags, { cwd: dir, env: { FROM_ENV: 'env-value' } });
    assert.deepEqual(values, {
      secrets: { TOKEN: 'last', KEY: 'multi\nline', FROM_ENV: 'env-value' },
      vars: { REGION: 'eu', SIZE: 'large' },
      inputs: { level: 'debug', count: 3, dry: true },
    });
    assert.equal(describeRunValues(values), 'secrets: TOKEN, KEY, FROM_ENV; variables: REGION, SIZE; inputs: level, count, dry');
    assert.equal(describeRunValues({ secrets: {}, vars: {}, inputs: {} }), '');
    assert.deepEqual((await resolveRunValues({ ...NONE, inputFile: 'inputs.env' }, { cwd: dir, env: {} })).inputs, { level: 'warning' });
    // `--secret token` reads the environment variable token, else TOKEN; it is secrets.TOKEN either way.
    const lower = { ...NONE, secrets: parseValueItems('secret', ['token']) };
    assert.deepEqual((await resolveRunValues(lower, { cwd: dir, env: { token: 'typed', TOKEN: 'upper' } })).secrets, { TOKEN: 'typed' });
    assert.deepEqual((await resolveRunValues(lower, { cwd: dir, env: { TOKEN: 'upper' } })).secrets, { TOKEN: 'upper' });
    await assert.rejects(resolveRunValues(lower, { cwd: dir, env: {} }), /^InputError: secret TOKEN has no value: --secret token reads the environment variable token or TOKEN \(unset or empty here\)/);
  });

  it('--secret NAME not in the environment: asked on a terminal, else an error saying how to pass it', async () => {
    const flags = { ...NONE, secrets: [{ name: 'DEPLOY_KEY' }] };
    const asked: string[] = [];
    const prompt = async (text: string) => {
      asked.push(text);
      return 'typed';
    };
    // An empty environment variable counts as unset, as in act.
    assert.deepEqual((await resolveRunValues(flags, { cwd: '.', env: { DEPLOY_KEY: '' }, prompt })).secrets, { DEPLOY_KEY: 'typed' });
    assert.deepEqual(asked, ['value of secret DEPLOY_KEY: ']);
    await assert.rejects(
      resolveRunValues(flags, { cwd: '.', env: {} }),
      /^InputError: secret DEPLOY_KEY has no value: --secret DEPLOY_KEY reads the environment variable DEPLOY_KEY \(unset or empty here\) or asks on a terminal \(stdin is not one\); export DEPLOY_KEY first, or put it in a --secret-file$/,
    );
  });

  it('refuses bad names in files by file and line, values over 48 KB and over 100 of a kind, never quoting a value', async (t) => {
    const big = 'x'.repeat(MAX_SUPPLIED_VALUE_BYTES + 1);
    const dir = await tempFiles(t, { bad: 'OK=1\n1BAD=hunter2\n', big: `BIG=${big}\n`, empty: 'E=\n', reserved: 'GITHUB_SHA=hunter2\n', list: '[1]', nested: '{"a": {"b": 1}}', spaced: '{"bad name": "x"}' });
    const run = (flags: Partial<RunValueFlags>) => resolveRunValues({ ...NONE, ...flags }, { cwd: dir, env: {} });
    await assert.rejects(run({ secretFile: 'bad' }), refusesWithout('hunter2', /^bad line 2: '1BAD' is not a secret name/));
    await assert.rejects(run({ varFile: 'reserved' }), refusesWithout('hunter2', /^reserved line 1: variable names must not start with GITHUB_/));
    await assert.rejects(run({ secretFile: 'big' }), refusesWithout('xxxx', /^the value of secret BIG is 49153 bytes; the limit is 49152 \(48 KB\)$/));
    assert.deepEqual((await run({ varFile: 'empty' })).vars, { E: '' });
    await assert.rejects(run({ vars: Array.from({ length: 101 }, (_, i) => ({ name: `V${i}`, value: 'x' })) }), /^InputError: 101 variables for one run; the limit is 100$/);
    await assert.rejects(run({ secretFile: 'missing' }), /^InputError: cannot read --secret-file file missing \(ENOENT\)$/);
    await assert.rejects(run({ inputFile: 'list' }), /expected NAME=value/);
    await assert.rejects(run({ inputFile: 'nested' }), /^InputError: --input-file file nested: input a must be a string, number or boolean, not object$/);
    await assert.rejects(run({ inputFile: 'spaced' }), /'bad name' is not an input name/);
  });
});

describe('the submission svc run sends', () => {
  it('carries secrets, vars and inputs only when given', () => {
    const flags = { event: 'workflow_dispatch', jobs: ['build'], base: 'main' };
    assert.deepEqual(submitBody('acme/app', 'a'.repeat(40), '.github/workflows/ci.yml', flags, { x: 1 }, { secrets: { TOKEN: 's' }, vars: { REGION: 'eu' }, inputs: { level: 'debug' } }), {
      repository: 'acme/app',
      snapshot: 'a'.repeat(40),
      workflow: '.github/workflows/ci.yml',
      event: 'workflow_dispatch',
      base: 'main',
      payload: { x: 1 },
      job: ['build'],
      inputs: { level: 'debug' },
      secrets: { TOKEN: 's' },
      vars: { REGION: 'eu' },
    });
    assert.deepEqual(submitBody('acme/app', 'b'.repeat(40), 'w.yml', { event: 'push', jobs: [] }, undefined, { secrets: {}, vars: {}, inputs: {} }), {
      repository: 'acme/app',
      snapshot: 'b'.repeat(40),
      workflow: 'w.yml',
      event: 'push',
    });
  });
});
