import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../core/kernel/index.js';
import { parseRunRequest } from './run-request.js';

const SHA = 'a'.repeat(40);
const MINIMAL = { repository: 'acme/app', snapshot: SHA, workflow: '.github/workflows/ci.yml' };

/** Expects an `invalid_request` InputError whose message matches every pattern. */
function assertRefused(body: unknown, ...patterns: RegExp[]): void {
  assert.throws(
    () => parseRunRequest(body),
    (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.code, 'invalid_request');
      for (const pattern of patterns) assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('run request validation', () => {
  it('applies the defaults: push, refs/heads/main, actor local', () => {
    assert.deepEqual(parseRunRequest(MINIMAL), { ...MINIMAL, event: 'push', ref: 'refs/heads/main', actor: 'local' });
  });

  it('takes the ref from base when no ref is given, and keeps an explicit one', () => {
    assert.equal(parseRunRequest({ ...MINIMAL, base: 'develop' }).ref, 'refs/heads/develop');
    assert.equal(parseRunRequest({ ...MINIMAL, base: 'refs/heads/release/1.x' }).base, 'release/1.x');
    const explicit = parseRunRequest({ ...MINIMAL, base: 'main', ref: 'refs/heads/feature' });
    assert.deepEqual([explicit.ref, explicit.base], ['refs/heads/feature', 'main']);
  });

  it('keeps every optional field, with workflow and changed files normalised', () => {
    const request = parseRunRequest({
      ...MINIMAL,
      workflow: './.github//workflows/ci.yml',
      event: 'workflow_dispatch',
      changed_files: ['./src/app.ts', 'README.md'],
      payload: { sender: { login: 'ada' } },
      job: 'test',
      inputs: { level: 'debug', dry: true, count: 3 },
      actor: 'ada',
    });
    assert.deepEqual(request, {
      repository: 'acme/app',
      snapshot: SHA,
      workflow: '.github/workflows/ci.yml',
      event: 'workflow_dispatch',
      ref: 'refs/heads/main',
      actor: 'ada',
      changedFiles: ['src/app.ts', 'README.md'],
      payload: { sender: { login: 'ada' } },
      jobs: ['test'],
      inputs: { level: 'debug', dry: true, count: 3 },
    });
  });

  it('takes one job or a list of jobs, without repeats', () => {
    assert.deepEqual(parseRunRequest({ ...MINIMAL, job: ['test', 'lint', 'test'] }).jobs, ['test', 'lint']);
    assert.equal(parseRunRequest(MINIMAL).jobs, undefined);
  });

  it('accepts 64-digit (SHA-256) snapshot ids', () => {
    assert.equal(parseRunRequest({ ...MINIMAL, snapshot: 'b'.repeat(64) }).snapshot, 'b'.repeat(64));
  });

  it('refuses a body that is not an object, and names each missing field', () => {
    assertRefused(undefined, /the body must be a JSON object/);
    assertRefused([MINIMAL], /the body must be a JSON object/);
    assertRefused({}, /repository is required/, /snapshot is required/, /workflow is required/);
  });

  it('refuses unknown fields, listing the allowed ones', () => {
    assertRefused({ ...MINIMAL, worklfow: 'x' }, /unknown field 'worklfow' \(allowed: repository, snapshot, workflow, event, ref, base, changed_files, payload, job, inputs, actor, secrets, vars\)/);
  });

  it('says what each malformed field should look like', () => {
    assertRefused({ ...MINIMAL, snapshot: 'HEAD' }, /snapshot must be the sha that POST \/api\/v1\/snapshots answered/);
    assertRefused({ ...MINIMAL, snapshot: SHA.toUpperCase() }, /snapshot must be the sha/);
    assertRefused({ ...MINIMAL, event: 'Push!' }, /event must be an event name/);
    assertRefused({ ...MINIMAL, ref: 'main' }, /ref must be a full ref such as refs\/heads\/main/);
    assertRefused({ ...MINIMAL, base: 'a b' }, /base must be a branch name/);
    assertRefused({ ...MINIMAL, base: 'a..b' }, /base must be a branch name/);
    assertRefused({ ...MINIMAL, base: '-x' }, /base must be a branch name/);
    assertRefused({ ...MINIMAL, payload: 'x' }, /payload must be a JSON object/);
    assertRefused({ ...MINIMAL, payload: [1] }, /payload must be a JSON object/);
    assertRefused({ ...MINIMAL, payload: { repository: 'acme/app' } }, /payload\.repository must be a JSON object/);
    assertRefused({ ...MINIMAL, payload: { repository: { full_name: 'other/repo' } } }, /payload\.repository\.full_name "other\/repo" is not the repository of the run \(acme\/app\)/);
    assertRefused({ ...MINIMAL, payload: { sender: { login: 7 } } }, /payload\.sender\.login must be a string/);
    assertRefused({ ...MINIMAL, changed_files: 'a.txt' }, /changed_files must be an array/);
    assertRefused({ ...MINIMAL, job: '' }, /job must not be empty/);
    assertRefused({ ...MINIMAL, job: [] }, /job must NOT have fewer than 1 items/);
    assertRefused({ ...MINIMAL, job: ['build', ''] }, /job\.1 must not be empty/);
    assertRefused({ ...MINIMAL, job: 7 }, /job must be a string or array/);
    assertRefused({ ...MINIMAL, actor: 'two words' }, /actor must be a login/);
    assertRefused({ ...MINIMAL, event: 'workflow_dispatch', inputs: { a: { nested: true } } }, /inputs\.a must be a string or number or boolean/);
  });

  it('reports every problem at once', () => {
    assertRefused({ repository: 'acme/app', snapshot: 'x', workflow: '/etc/passwd', event: 'X' }, /snapshot must be/, /event must be/);
  });

  it('refuses paths that leave the repository', () => {
    for (const workflow of ['/etc/passwd', '../ci.yml', '.github/../../ci.yml', 'C:\\ci.yml', './', '.']) {
      assertRefused({ ...MINIMAL, workflow }, /workflow ".*" must be a path inside the repository/);
    }
    assertRefused({ ...MINIMAL, changed_files: ['ok.txt', '../secret'] }, /changed_files\[1\] "\.\.\/secret" must be a path inside the repository/);
  });

  it('takes inputs for workflow_dispatch only', () => {
    assertRefused({ ...MINIMAL, inputs: { a: '1' } }, /inputs are for the workflow_dispatch event only \(the event is push\)/);
    assert.deepEqual(parseRunRequest({ ...MINIMAL, event: 'workflow_dispatch', inputs: { a: '1' } }).inputs, { a: '1' });
  });

  it('takes run-supplied secrets and vars, and leaves out empty maps', () => {
    const parsed = parseRunRequest({ ...MINIMAL, secrets: { TOKEN: 'line 1\nline 2', EMPTY: '' }, vars: { REGION: 'eu' } });
    assert.deepEqual(parsed.secrets, { TOKEN: 'line 1\nline 2', EMPTY: '' });
    assert.deepEqual(parsed.vars, { REGION: 'eu' });
    const none = parseRunRequest({ ...MINIMAL, secrets: {}, vars: {} });
    assert.equal('secrets' in none || 'vars' in none, false);
  });

  it("refuses names outside the secrets plugin's rules, naming them", () => {
    assertRefused({ ...MINIMAL, secrets: { lower: 'x', GITHUB_TOKEN: 'y', '1ST': 'z' } }, /secrets: 'lower' is not a name: use UPPER_SNAKE/, /'GITHUB_TOKEN' is not a name/, /'1ST' is not a name/);
    assertRefused({ ...MINIMAL, vars: { 'A-B': 'x' } }, /vars: 'A-B' is not a name/);
    assertRefused({ ...MINIMAL, secrets: { A: 1 } }, /secrets\.A must be a string/);
  });

  it('refuses a value over 48 KB and too many values without ever quoting a value', () => {
    const long = 'é'.repeat(25_000);
    assert.throws(
      () => parseRunRequest({ ...MINIMAL, secrets: { BIG: long } }),
      (error: unknown) => error instanceof InputError && /secrets\.BIG is 50000 bytes; the limit is 49152 \(48 KB\)/.test(error.message) && !error.message.includes('é'),
    );
    assertRefused({ ...MINIMAL, vars: { BIG: 'x'.repeat(49_153) } }, /vars\.BIG is longer than 49152 characters \(48 KB\)/);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`S_${i}`, 'v']));
    assertRefused({ ...MINIMAL, secrets: many }, /secrets must NOT have more than 100 properties/);
  });
});
