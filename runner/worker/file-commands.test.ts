import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LogMasker } from '../reporting/index.js';
import { createStepFiles, processStepFiles } from './file-commands.js';
import { JobState } from './job-state.js';
import { RecordContext } from './record-context.js';
import { RecordingReporter } from './test-support.js';

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-files-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const masker = new LogMasker();
  const reporter = new RecordingReporter(masker);
  const record = new RecordContext({ id: 's1', parentId: 'j', type: 'Task', name: 'step', refName: 'step', order: 2 }, { reporter, masker, debug: false, now: () => new Date() });
  const job = new JobState();
  const state: Record<string, string> = {};
  const summaries: string[] = [];
  const files = await createStepFiles(dir);
  const target = { record, job, contextName: 'build', state, attachSummary: (md: string) => summaries.push(md) };
  return { dir, files, target, job, state, summaries, reporter };
}

describe('file commands', () => {
  it('applies GITHUB_ENV, GITHUB_OUTPUT (heredocs too), GITHUB_PATH, GITHUB_STATE and the summary, then removes the files', async (t) => {
    const { dir, files, target, job, state, summaries } = await setup(t);
    assert.deepEqual(Object.keys(files.paths).sort(), ['env', 'output', 'path', 'state', 'step_summary']);
    await writeFile(files.paths.env, 'A=1\nMULTI<<EOF\nline 1\nline 2\nEOF\n');
    await writeFile(files.paths.output, 'answer=42\n');
    await writeFile(files.paths.path, '/opt/one\n/opt/two\n');
    await writeFile(files.paths.state, 'pid=123\n');
    await writeFile(files.paths.step_summary, '### Done\n');
    assert.equal(await processStepFiles(files, target), true);
    assert.deepEqual(Object.fromEntries(job.env), { A: '1', MULTI: 'line 1\nline 2' });
    assert.deepEqual(job.steps.outputsOf('build'), { answer: '42' });
    assert.deepEqual(job.prependPath(), ['/opt/two', '/opt/one']);
    assert.deepEqual(state, { pid: '123' });
    assert.deepEqual(summaries, ['### Done\n']);
    assert.deepEqual(await readdir(dir), []);
  });

  it('a malformed file fails the step with the runner wording; NODE_OPTIONS is refused without failing', async (t) => {
    const { files, target, job, reporter } = await setup(t);
    await writeFile(files.paths.env, 'NODE_OPTIONS=--inspect\nOK=yes\n');
    await writeFile(files.paths.output, 'broken<<EOF\nno end\n');
    assert.equal(await processStepFiles(files, target), false);
    assert.deepEqual(Object.fromEntries(job.env), { OK: 'yes' });
    const lines = reporter.lines.get('s1') ?? [];
    assert.ok(lines.includes("##[error]Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command."), lines.join('\n'));
    assert.ok(lines.includes("##[error]Unable to process file command 'output' successfully."), lines.join('\n'));
  });

  it('outputs of steps without an id of their own stay out of the steps context', async (t) => {
    const { files, target, job } = await setup(t);
    await writeFile(files.paths.output, 'x=1\n');
    await processStepFiles(files, { ...target, contextName: '__run_2' });
    assert.deepEqual(job.steps.toContext(), {});
  });
});
