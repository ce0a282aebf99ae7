import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { InputError } from '../../../core/kernel/index.js';
import { collect, git, isolateGitConfig, listTar } from '../../../test/snapshots/support.js';
import { tempDir } from '../../../test/support/services.js';
import { findLocalRepository, resolveWorkflowFile } from './local-repository.js';
import { packWorkingTree } from './snapshot/index.js';

isolateGitConfig();

const WORKFLOW = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo a\n';

/** A repository with workflows at its root, and `examples/` with workflows of its own. */
async function repository(t: TestContext): Promise<string> {
  const dir = await realpath(await tempDir(t));
  await git(dir, ['init', '-q', '-b', 'main']);
  const files: Record<string, string> = {
    '.gitignore': '*.log\n',
    '.github/workflows/ci.yml': WORKFLOW,
    '.github/workflows/release.yaml': WORKFLOW,
    'src/app.ts': 'x\n',
    'examples/.github/workflows/matrix.yml': WORKFLOW,
    'examples/.github/actions/greet/action.yml': 'runs: {using: composite, steps: []}\n',
    'examples/debug.log': 'ignored\n',
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

describe('svc run: which repository and which workflow', () => {
  it('is the work tree top from anywhere below it, named after the origin remote', async (t) => {
    const dir = await repository(t);
    await git(dir, ['remote', 'add', 'origin', 'git@github.com:acme/widgets.git']);
    for (const cwd of [dir, join(dir, 'src')]) assert.deepEqual(await findLocalRepository(cwd), { root: dir, gitTop: dir, name: 'acme/widgets' });
    assert.equal(await resolveWorkflowFile(await findLocalRepository(join(dir, 'src')), '.github/workflows/ci.yml', join(dir, 'src')), '.github/workflows/ci.yml');
    assert.equal(await resolveWorkflowFile(await findLocalRepository(dir), './.github/workflows/release.yaml', dir), '.github/workflows/release.yaml');
    assert.equal(await resolveWorkflowFile(await findLocalRepository(join(dir, 'src')), '../.github/workflows/ci.yml', join(dir, 'src')), '.github/workflows/ci.yml');
  });

  it('is a directory with its own .github/workflows inside the work tree, packed as if it were the top', async (t) => {
    const dir = await repository(t);
    const examples = join(dir, 'examples');
    const found = await findLocalRepository(examples);
    assert.deepEqual(found, { root: examples, gitTop: dir, name: 'local/examples' });
    assert.equal(await resolveWorkflowFile(found, undefined, examples), '.github/workflows/matrix.yml');
    await assert.rejects(resolveWorkflowFile(found, '../.github/workflows/ci.yml', examples), /is outside the repository at .*examples; run svc run from the repository that holds it/);

    const out = new PassThrough();
    const [result, archive] = await Promise.all([packWorkingTree(examples, { out, subtree: true }), collect(out)]);
    assert.equal(result.root, examples);
    const names = Object.keys(await listTar(archive)).sort();
    assert.deepEqual(names, ['.github/actions/greet/action.yml', '.github/workflows/matrix.yml']);
  });

  it('asks for -f when there are several workflows or none, listing them', async (t) => {
    const dir = await repository(t);
    const found = await findLocalRepository(dir);
    await assert.rejects(
      resolveWorkflowFile(found, undefined, dir),
      (error: unknown) =>
        error instanceof InputError && error.message === `${dir} has 2 workflows; choose one with -f; its workflows:\n  .github/workflows/ci.yml\n  .github/workflows/release.yaml`,
    );
    await assert.rejects(resolveWorkflowFile(found, 'nope.yml', dir), /no workflow file nope\.yml \(looked in the repository root .*\); its workflows:\n {2}\.github\/workflows\/ci\.yml/);
    const empty = await realpath(await tempDir(t));
    await git(empty, ['init', '-q']);
    await assert.rejects(resolveWorkflowFile(await findLocalRepository(empty), undefined, empty), /no workflow files in .*\.github\/workflows; write one, or name a file with -f/);
  });
});
