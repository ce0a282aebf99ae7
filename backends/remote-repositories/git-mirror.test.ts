import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createMirrorSource } from './git-mirror.js';
import { fromSources } from './remote-repositories.js';

const GIT_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/** `<mirror>/acme/shared.git`: commit A on main tagged v1 and tagged `both`, commit B on main and on branch `both`. */
function mirror(t: TestContext): { readonly dir: string; readonly a: string; readonly b: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mirror-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const work = join(dir, 'work');
  mkdirSync(join(work, '.github/workflows'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env: GIT_ENV }).toString('utf8').trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(work, '.github/workflows/build.yml'), 'first\n');
  git('add', '.');
  git('commit', '-q', '-m', 'a');
  git('tag', 'v1');
  git('tag', 'both');
  const a = git('rev-parse', 'HEAD');
  writeFileSync(join(work, '.github/workflows/build.yml'), 'second\n');
  git('commit', '-q', '-am', 'b');
  git('branch', 'both');
  const b = git('rev-parse', 'HEAD');
  mkdirSync(join(dir, 'mirror/acme'), { recursive: true });
  git('clone', '-q', '--bare', work, join(dir, 'mirror/acme/shared.git'));
  return { dir: join(dir, 'mirror'), a, b };
}

describe('the mirror as a source of remote repositories', () => {
  it('resolves tags before branches, then commits, and names each ref as GitHub does', async (t) => {
    const { dir, a, b } = mirror(t);
    const source = createMirrorSource(dir);
    assert.deepEqual(await source.resolve('acme/shared', 'v1'), { sha: a });
    assert.deepEqual(await source.resolve('acme/shared', 'main'), { sha: b });
    assert.deepEqual(await source.resolve('acme/shared', 'both'), { sha: a }, 'a tag wins over a branch of the same name');
    assert.deepEqual(await source.resolve('acme/shared', b), { sha: b });
    assert.equal(await source.refName('acme/shared', 'v1', a), 'refs/tags/v1');
    assert.equal(await source.refName('acme/shared', 'main', b), 'refs/heads/main');
    assert.equal(await source.refName('acme/shared', b, b), b);
    assert.equal(await source.refName('acme/shared', b.slice(0, 10), b), b);
    assert.match(source.location, new RegExp(`^the mirror at ${dir} \\(SVC_ACTIONS_MIRROR_DIR\\)$`));
  });

  it('reads a file at a commit, and nothing outside the repository', async (t) => {
    const { dir, a, b } = mirror(t);
    const source = createMirrorSource(dir);
    assert.equal(await source.readFile('acme/shared', a, '.github/workflows/build.yml'), 'first\n');
    assert.equal(await source.readFile('acme/shared', b, '.github/workflows/build.yml'), 'second\n');
    assert.equal(await source.readFile('acme/shared', a, '.github/workflows/gone.yml'), undefined);
    assert.equal(await source.readFile('acme/shared', a, '../shared.git/config'), undefined);
    assert.equal(await source.readFile('acme/shared', 'v1', '.github/workflows/build.yml'), undefined, 'only a commit sha');
  });

  it('says why a repository or a ref is not there, and asks the sources in order', async (t) => {
    const { dir, a } = mirror(t);
    const repositories = fromSources([createMirrorSource(dir)]);
    assert.deepEqual(await repositories.locate('acme/gone', 'v1'), { missing: ['the mirror has no acme/gone.git'] });
    assert.deepEqual(await repositories.locate('acme/shared', 'v9'), { missing: ["the mirror's acme/shared has no tag, branch or commit 'v9'"] });
    assert.deepEqual(await repositories.locate('acme/shared', '--upload-pack=x'), { missing: ["the mirror's acme/shared has no tag, branch or commit '--upload-pack=x'"] });
    const found = await repositories.locate('acme/shared', 'v1');
    assert.ok('sha' in found && found.sha === a && found.source.kind === 'mirror');
    assert.deepEqual(await fromSources([]).locate('acme/shared', 'v1'), { missing: [] });
  });
});
