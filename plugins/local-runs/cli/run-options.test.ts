import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InputError, MissingTokenError, NotImplementedError, ServerAnswerError, ServerUnreachableError } from '../../../core/kernel/index.js';
import { errorMessage, EXIT, exitCodeForConclusion, exitCodeForError } from './exit-codes.js';
import { readPayloadFile } from './payload-file.js';
import { parseRunOptions } from './run-options.js';

describe('svc run flags', () => {
  it('applies the defaults', () => {
    assert.deepEqual(parseRunOptions({}), { jobs: [], event: 'push', values: { secrets: [], vars: [], inputs: [] }, json: false });
  });

  it('keeps every flag, --job repeated and as a comma list, without repeats', () => {
    const options = parseRunOptions({ file: '.github/workflows/ci.yml', job: ['build,test', 'lint', 'build'], event: 'pull_request', base: 'refs/heads/main', payload: 'event.json', json: true });
    assert.deepEqual(options, { file: '.github/workflows/ci.yml', jobs: ['build', 'test', 'lint'], event: 'pull_request', base: 'main', payloadFile: 'event.json', values: { secrets: [], vars: [], inputs: [] }, json: true });
    assert.deepEqual(parseRunOptions({ job: 'deploy' }).jobs, ['deploy']);
  });

  it('refuses empty and malformed values, naming the flag', () => {
    assert.throws(() => parseRunOptions({ job: ['build,'] }), (error: unknown) => error instanceof InputError && /--job needs job ids/.test(error.message));
    assert.throws(() => parseRunOptions({ event: 'Push!' }), /--event 'Push!' is not an event name/);
    assert.throws(() => parseRunOptions({ file: ' ' }), /-f\/--file needs a workflow file/);
    assert.throws(() => parseRunOptions({ payload: '' }), /--payload needs a JSON file/);
  });

  it('refuses the flags that are not built yet, never ignoring them', () => {
    for (const [key, flag] of [['debug', '--debug'], ['preserveOnFailure', '--preserve-on-failure'], ['push', '--push'], ['createPr', '--create-pr']] as const) {
      assert.throws(
        () => parseRunOptions({ [key]: true }),
        (error: unknown) => error instanceof NotImplementedError && errorMessage(error) === `not implemented yet: svc run ${flag}` && exitCodeForError(error) === EXIT.usage,
      );
    }
  });
});

describe('svc run --payload', () => {
  it('reads a JSON object and names the file in every refusal', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-payload-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'ok.json'), '{"action": "opened"}');
    await writeFile(join(dir, 'bad.json'), '{"action": ');
    await writeFile(join(dir, 'list.json'), '[1]');
    assert.deepEqual(await readPayloadFile('ok.json', dir), { action: 'opened' });
    await assert.rejects(readPayloadFile('bad.json', dir), /^InputError: --payload file bad\.json is not valid JSON: /);
    await assert.rejects(readPayloadFile('list.json', dir), /--payload file list\.json must hold a JSON object \(the event payload\), not an array/);
    await assert.rejects(readPayloadFile('missing.json', dir), /cannot read --payload file missing\.json \(ENOENT\)/);
  });
});

describe('svc run exit codes', () => {
  it('0 for success, 1 for any other end of the run', () => {
    assert.deepEqual(['success', 'skipped', 'failure', 'cancelled', 'timed_out'].map(exitCodeForConclusion), [0, 0, 1, 1, 1]);
  });

  it('3 when the server cannot be used, 2 when it refuses the submission, 2 for local problems', () => {
    const unreachable = new ServerUnreachableError('cannot reach the server at http://127.0.0.1:9090 (ECONNREFUSED); is `svc serve` running there?', 'http://127.0.0.1:9090', undefined);
    assert.equal(exitCodeForError(unreachable), 3);
    assert.equal(errorMessage(unreachable), 'no svc server at http://127.0.0.1:9090; start one with `svc serve` (or set SVC_URL)');
    assert.equal(exitCodeForError(new MissingTokenError('no token')), 3);
    assert.equal(exitCodeForError(new ServerAnswerError('bad token (HTTP 401)', 401, 'unauthorized')), 3);
    assert.equal(exitCodeForError(new ServerAnswerError('boom (HTTP 500)', 500, undefined)), 3);
    assert.equal(exitCodeForError(new ServerAnswerError('not triggered (HTTP 422)', 422, 'not_triggered')), 2);
    assert.equal(exitCodeForError(new ServerAnswerError('no job (HTTP 404)', 404, 'job_not_found')), 2);
    assert.equal(exitCodeForError(new InputError('no workflow files')), 2);
    assert.equal(exitCodeForError(new Error('git failed')), 2);
  });
});
