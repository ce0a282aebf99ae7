/**
 * The product as a user meets it: `svc serve` (SQLite, its own data dir) with the built-in pool
 * taking the jobs, and `svc run` spawned in a git repository with uncommitted changes. Every case
 * runs once per isolation backend, one server per backend; the namespace backend is skipped (with
 * the reason printed) only where the kernel refuses namespaces.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readVersions } from '../../core/kernel/index.js';
import type { RunView } from '../../plugins/engine/run-view.js';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { EXAMPLES_DIR, gitRepository, spawnTs, startServerWithPool, svcRun, useBundle, type PoolBackend, type PoolServer, type Spawned } from '../local-runs/run-cli-harness.js';
import { git, isolateGitConfig } from '../snapshots/support.js';
import { TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { getLikeCurl } from '../support/loopback-get.js';
import { api } from '../vm-pool/support.js';
import { createActionMirror, type ActionMirror } from '../support/action-mirror.js';
import { uploadArtifactAction } from './artifact-action.js';
import { ANNOTATIONS, ARTIFACTS, CLOSURE, isolationProbe, LOCAL_GREET, MATRIX_NEEDS_OUTPUTS, RELAY, REMOTE_CALLER, REMOTE_MIRROR, SLOW } from './pool-workflows.js';

isolateGitConfig();
// The CLIs, hence the pool's guests, run from a production bundle (as a user installs them) built
// here once: through tsx every `svc run` and every guest takes seconds of CPU more to start, and
// this suite took ~6 CPU-minutes that way against ~1.5 (test/vm-pool covers guests from source).
after(useBundle('e2e'));

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const probe = await createNamespaceBackend({ logger: silent, dataDir: tmpdir() }).probe();
// microvm is not part of this suite: emulated (TCG) guests, where KVM cannot boot them, are too slow for it.
const SKIP: Record<Exclude<PoolBackend, 'microvm'>, string | false> = {
  process: false,
  namespace: probe.ok ? false : `namespace guests unavailable here: ${probe.reason}`,
};

/** The run `svc run` started, from its "run N of ..." note, as the API has it now. */
async function runOf(server: PoolServer, run: Spawned): Promise<RunView> {
  const id = /^svc run: run (\d+) of /m.exec(run.stderr())?.[1];
  assert.ok(id !== undefined, run.stderr());
  return api<RunView>(server.base, `/api/v1/runs/${id}`);
}

const jobNamed = (view: RunView, name: string) => {
  const job = view.jobs.find((candidate) => candidate.name === name);
  assert.ok(job !== undefined, `no job ${name} in ${view.jobs.map((candidate) => candidate.name).join(', ')}`);
  return job;
};

const output = (run: Spawned) => `${run.stdout()}${run.stderr()}`;

/** Files under `dir`, as examples/.github/actions/count-files counts them. */
async function countFiles(dir: string): Promise<number> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => !entry.isDirectory()).length;
}

/** examples/ as a repository of its own, committed; then, uncommitted, a new greeting and a new file under .github. */
async function examplesRepository(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-examples-'));
  await cp(EXAMPLES_DIR, dir, { recursive: true });
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'examples']);
  const greet = join(dir, '.github/actions/greet/action.yml');
  await writeFile(greet, (await readFile(greet, 'utf8')).replace('greeting="Hello,', 'greeting="Hi there,'));
  await writeFile(join(dir, '.github/uncommitted.txt'), 'not committed\n');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

for (const backend of ['process', 'namespace'] as const) {
  const skip = SKIP[backend];
  if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);

  // What the backend plays no part in (the CLI, the engine, the services) runs on one backend:
  // namespace, the default, unless this host cannot run it.
  const once = backend === 'namespace' || SKIP.namespace !== false ? {} : { skip: 'runs on the namespace backend only: the guest backend plays no part in it' };

  describe(`svc run on the built-in pool, ${backend} backend`, { skip }, () => {
    let server: PoolServer;
    // The action mirror (SVC_ACTIONS_MIRROR_DIR) remote actions and reusable workflows come from.
    let mirror: ActionMirror;
    const mirrored: Record<string, string> = {};
    before(async () => {
      mirror = await createActionMirror();
      for (const [name, files] of Object.entries(REMOTE_MIRROR)) mirrored[name] = await mirror.commit(name, { files, tags: ['v1'] });
      // And what examples/README.md tells users to mirror for examples/.github/workflows/remote-reusable.yml.
      const made = spawnSync('sh', [join(EXAMPLES_DIR, 'mirror', 'make-mirror.sh'), mirror.dir], { encoding: 'utf8' });
      assert.equal(made.status, 0, made.stderr);
      server = await startServerWithPool(backend, { warm: 2, max: 4, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir } });
    });
    after(async () => {
      await server?.stop();
      await mirror?.remove();
    });

    it('a matrix between jobs passing outputs through needs, with the uncommitted workflow: exit 0', async (t) => {
      const repo = await gitRepository({ '.github/workflows/ci.yml': MATRIX_NEEDS_OUTPUTS }, { '.github/workflows/ci.yml': MATRIX_NEEDS_OUTPUTS.replace('-committed', '-uncommitted') });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      assert.match(run.stdout(), /^test \(sweet\) \| testing 2\.0\.\d+-uncommitted sweet on svc-pool-/m);
      assert.match(run.stdout(), /^test \(sour\) \| testing 2\.0\.\d+-uncommitted sour on svc-pool-/m);
      const view = await runOf(server, run);
      assert.equal(view.conclusion, 'success');
      assert.match(jobNamed(view, 'done').outputs.summary ?? '', /^2\.0\.\d+-uncommitted success$/);
      const runners = view.jobs.map((job) => job.runner_name ?? '');
      assert.equal(new Set(runners).size, 4, `one guest per job: ${runners.join(', ')}`);
    });

    it('a failing step ends the run failed after its always() cleanup (examples/): exit 1', once, async (t) => {
      const repo = await examplesRepository();
      t.after(repo.remove);
      const run = svcRun(['-f', '.github/workflows/failing-with-cleanup.yml'], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 1, output(run));
      assert.match(run.stdout(), /^fail \| this step fails on purpose$/m);
      assert.match(run.stdout(), /^fail \| a step failed; reporting it$/m);
      assert.match(run.stdout(), /^fail \| cleanup ran$/m);
      assert.doesNotMatch(run.stdout(), /never printed/);
      const steps = jobNamed(await runOf(server, run), 'fail').steps.map((step) => [step.name, step.conclusion]);
      assert.deepEqual(steps.filter(([name]) => name !== 'Set up job' && name !== 'Complete job'), [
        ['Prepare', 'success'],
        ['Broken step', 'failure'],
        ['Skipped after the failure', 'skipped'],
        ['Report the failure', 'success'],
        ['Cleanup', 'success'],
      ]);
    });

    it("a step clones the run's commit through the checkout relay and gets the uncommitted change", async (t) => {
      const repo = await gitRepository({ '.github/workflows/relay.yml': RELAY, 'changed.txt': 'as committed\n' }, { 'changed.txt': 'changed after the commit\n', 'untracked.txt': 'new\n' });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      assert.match(run.stdout(), /^checkout \| changed\.txt says changed after the commit$/m);
      assert.match(run.stdout(), /^checkout \| untracked\.txt came along$/m);
      assert.match(run.stdout(), /^checkout \| HEAD is the run's commit$/m);
      assert.equal(jobNamed(await runOf(server, run), 'checkout').outputs.content, 'changed after the commit');
    });

    it("a step's annotations are printed where the step logged them, between its lines", once, async (t) => {
      const repo = await gitRepository({ '.github/workflows/annotations.yml': ANNOTATIONS });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      const lines = run.stdout().split('\n');
      const at = (line: string) => {
        const index = lines.indexOf(line);
        assert.ok(index >= 0, `no line '${line}' in:\n${run.stdout()}`);
        return index;
      };
      const order = ['lint | linting src', 'lint | error: src/app.c:3: missing semicolon', 'lint | warning: unused variable', 'lint | lint done', 'lint | next step ran'].map(at);
      assert.deepEqual(order, [...order].sort((a, b) => a - b), run.stdout());
      assert.equal(lines.filter((line) => line.endsWith(': missing semicolon')).length, 1, 'once, as an annotation');
      assert.doesNotMatch(run.stdout(), /##\[(error|warning)\]/);
    });

    it('an uploaded artifact: the URL the job prints answers with the token, svc artifacts lists and unpacks it', once, async (t) => {
      const repo = await gitRepository({ '.github/workflows/artifacts.yml': ARTIFACTS, ...(await uploadArtifactAction('.github/actions/upload')) });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      const view = await runOf(server, run);
      const url = /^build \| Artifact download URL: (\S+)$/m.exec(run.stdout())?.[1] ?? '';
      assert.match(url, new RegExp(`^http://svc\\.localhost:\\d+/local/[^/]+/actions/runs/${view.id}/artifacts/\\d+$`), run.stdout());
      assert.equal(jobNamed(view, 'build').outputs.url, url);

      const anonymous = await getLikeCurl(url);
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.body.toString(), new RegExp(`svc artifacts download ${view.id} --name <name>`));
      const zip = await getLikeCurl(url, { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` });
      assert.equal(zip.status, 200, zip.body.toString());
      assert.equal(zip.headers['content-type'], 'application/zip');

      const list = spawnTs('cli/svc.ts', ['artifacts', 'list', String(view.id)], server.cliEnv, repo.dir);
      assert.equal(await list.exited, 0, list.stderr());
      assert.match(list.stdout(), new RegExp(`^${url.replace(/.*\//, '')}\\s+dist\\s+`, 'm'));
      const out = await mkdtemp(join(tmpdir(), 'svc-e2e-artifacts-'));
      t.after(() => rm(out, { recursive: true, force: true }));
      const download = spawnTs('cli/svc.ts', ['artifacts', 'download', String(view.id), '--dir', out], server.cliEnv, repo.dir);
      assert.equal(await download.exited, 0, download.stderr());
      assert.equal(await readFile(join(out, 'dist', 'app.txt'), 'utf8'), `built from ${view.sha}\n`);
      assert.equal(await readFile(join(out, 'dist', 'sub', 'notes.txt'), 'utf8'), 'release notes\n');
    });

    it('a remote reusable workflow from the mirror gets its inputs, runs remote and local actions, and hands its outputs to needs: exit 0', async (t) => {
      const repo = await gitRepository({ '.github/workflows/remote.yml': REMOTE_CALLER, '.github/actions/local-greet/action.yml': LOCAL_GREET });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      assert.match(run.stdout(), /^call \/ build \| building e2e at level 3 from acme\/shared\/\.github\/workflows\/build\.yml@refs\/tags\/v1$/m);
      assert.match(run.stdout(), /^call \/ build \| greet says hello remote$/m);
      assert.match(run.stdout(), /^call \/ build \| greet says hello local$/m);
      assert.match(run.stdout(), /^call \/ build \| the remote action said hello remote$/m);
      assert.match(run.stdout(), new RegExp(`^call / check / sha \\| check from acme/shared at ${mirrored['acme/shared'] ?? '-'}$`, 'm'));
      assert.match(run.stdout(), /^report \| the call built e2e-3\.tgz \(success\)$/m);
      const view = await runOf(server, run);
      assert.equal(view.conclusion, 'success');
      assert.equal(jobNamed(view, 'report').outputs.summary, 'e2e-3.tgz|hello local');
    });

    it('a remote reusable workflow at a ref the mirror does not have: exit 2 naming what was looked up, and where', once, async (t) => {
      const repo = await gitRepository({ '.github/workflows/remote.yml': REMOTE_CALLER.replace('build.yml@v1', 'build.yml@v9') });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 2, output(run));
      assert.ok(
        run.stderr().includes(`uses: acme/shared/.github/workflows/build.yml@v9: no source has acme/shared at 'v9' (looked up in the mirror at ${mirror.dir} (SVC_ACTIONS_MIRROR_DIR)): the mirror's acme/shared has no tag, branch or commit 'v9'`),
        run.stderr(),
      );
      assert.doesNotMatch(run.stderr(), /^svc run: run \d+ of /m, 'no run was created');
    });

    it('--job runs the job asked for and the jobs it needs, nothing else', once, async (t) => {
      const repo = await gitRepository({ '.github/workflows/closure.yml': CLOSURE });
      t.after(repo.remove);
      const run = svcRun(['--job', 'build'], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      assert.match(run.stdout(), /^setup \| setup-ran$/m);
      assert.match(run.stdout(), /^build \| build-ran$/m);
      assert.doesNotMatch(run.stdout(), /unrelated/);
      assert.deepEqual((await runOf(server, run)).jobs.map((job) => [job.name, job.conclusion]), [
        ['setup', 'success'],
        ['build', 'success'],
      ]);
    });

    it('Ctrl-C while a job runs cancels the run (exit 130); its always() step still runs', async (t) => {
      const repo = await gitRepository({ '.github/workflows/slow.yml': SLOW });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      // Once its first step runs (its lines show while it runs): a job cancelled while it is
    // still being set up runs no steps at all, as on GitHub.
    await run.waitFor(/^wait \| started$/m);
      run.child.kill('SIGINT');
      assert.equal(await run.exited, 130, output(run));
      assert.match(run.stdout(), /^job wait: cancelled$/m);
      assert.match(run.stdout(), /^wait \| cleanup-after-cancel$/m);
      assert.doesNotMatch(run.stdout(), /^wait \| never$/m, 'cancelled before its last command (the command line shown as the step starts may name it)');
      const view = await runOf(server, run);
      assert.deepEqual([view.status, view.conclusion, jobNamed(view, 'wait').conclusion], ['cancelled', 'cancelled', 'cancelled']);
    });

    it(backend === 'namespace' ? 'a job cannot see host files, signal host processes or reach the non-runner routes' : 'a job sees host files, host processes and every route (the process backend isolates nothing)', async (t) => {
      const secrets = await mkdtemp(join(tmpdir(), 'svc-e2e-secret-'));
      const secretFile = join(secrets, 'secret.txt');
      await writeFile(secretFile, 'host secret\n');
      const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
      t.after(async () => {
        sleeper.kill('SIGKILL');
        await rm(secrets, { recursive: true, force: true });
      });
      assert.ok(sleeper.pid !== undefined);
      const workflow = isolationProbe({ secretFile, database: join(server.dataDir, 'svc.db'), hostPid: sleeper.pid });
      const repo = await gitRepository({ '.github/workflows/isolation.yml': workflow });
      t.after(repo.remove);
      const run = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await run.exited, 0, output(run));
      const outputs = jobNamed(await runOf(server, run), 'probe').outputs;
      const answers = [outputs.secret, outputs.database, outputs.signal, outputs.status, outputs.readyz, outputs.runner];
      if (backend === 'namespace') assert.deepEqual(answers, ['absent', 'absent', 'refused', '404', '404', '200'], JSON.stringify(outputs));
      else assert.deepEqual(answers, ['present', 'present', 'delivered', '401', '200', '200'], JSON.stringify(outputs));
    });

    it('node24 and node20 actions in one job on a server running node 20, and a tool cache hit across guests (examples/)', async (t) => {
      const repo = await examplesRepository();
      t.after(repo.remove);
      const runtimes = svcRun(['-f', '.github/workflows/node-runtimes.yml'], server.cliEnv, repo.dir);
      assert.equal(await runtimes.exited, 0, output(runtimes));
      const node24 = `v${readVersions().node24Version}`;
      assert.match(runtimes.stdout(), new RegExp(`^runtimes \\| first main runs on node ${node24}$`, 'm'));
      assert.match(runtimes.stdout(), /^runtimes \| \.github holds \d+ files$/m, 'the node20 action ran');
      assert.match(runtimes.stdout(), new RegExp(`^runtimes \\| second main runs on node ${node24}$`, 'm'), 'another node first on GITHUB_PATH changes nothing');
      assert.match(runtimes.stdout(), new RegExp(`^runtimes \\| second post runs on node ${node24}$`, 'm'));
      assert.match(runtimes.stdout(), new RegExp(`^runtimes \\| first post runs on node ${node24}$`, 'm'));
      const cache = svcRun(['-f', '.github/workflows/tool-cache.yml'], server.cliEnv, repo.dir);
      assert.equal(await cache.exited, 0, output(cache));
      assert.match(cache.stdout(), /^use \| demo-tool 1\.2\.3 found in the tool cache \(.+\/demo-tool\/1\.2\.3\/x64\)$/m);
      assert.match(cache.stdout(), /^use \| demo-tool 1\.2\.3: used on svc-pool-\S+, cache hit true$/m);
      const view = await runOf(server, cache);
      assert.notEqual(jobNamed(view, 'install').runner_name, jobNamed(view, 'use').runner_name, 'two guests');
    });

    if (backend === 'namespace') {
      it('runs the examples/ workflows as the README says', async (t) => {
        const repo = await examplesRepository();
        t.after(repo.remove);
        const results = await Promise.all(
          ['matrix.yml', 'needs-outputs.yml', 'composite-action.yml', 'javascript-action.yml', 'remote-reusable.yml'].map(async (name) => {
            const run = svcRun(['-f', `.github/workflows/${name}`], server.cliEnv, repo.dir);
            return { name, code: await run.exited, text: run.stdout() };
          }),
        );
        for (const result of results) assert.equal(result.code, 0, `${result.name}:\n${result.text}`);
        const said = (name: string) => results.find((result) => result.name === name)?.text ?? '';
        assert.match(said('matrix.yml'), /^done \| all four combinations passed$/m);
        assert.match(said('needs-outputs.yml'), /^publish \| publishing 1\.2\.\d+ to beta$/m);
        // The uncommitted greeting and file reached the jobs through the checkout relay.
        assert.match(said('composite-action.yml'), /^greet \| the action said 'Hi there, svc!'$/m);
        assert.match(said('javascript-action.yml'), new RegExp(`^count \\| ${await countFiles(join(repo.dir, '.github'))} files under \\.github$`, 'm'));
        const node24 = `v${readVersions().node24Version}`;
        assert.match(said('remote-reusable.yml'), new RegExp(`^build / build \\| remote pre runs on node ${node24}$`, 'm'), 'a remote node24 action runs its pre stage');
        assert.match(said('remote-reusable.yml'), /^build \/ build \| building examples at level 2 \(svc-examples\/shared\/\.github\/workflows\/build\.yml@refs\/tags\/v1\)$/m);
        assert.match(said('remote-reusable.yml'), /^report \| the reusable workflow built examples-2\.tgz \(success\)$/m);
      });
    }
  });
}
