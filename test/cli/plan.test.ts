import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_ROOT, spawnCli } from '../support/spawn-cli.js';

const FIXTURES = join(PROJECT_ROOT, 'test/fixtures/workflows');
const PIPELINE = join(FIXTURES, 'pipeline/.github/workflows/ci.yml');
const QUEUE = join(FIXTURES, 'queue/.github/workflows/deploy.yml');

interface PlanRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

async function svcPlan(...args: string[]): Promise<PlanRun> {
  const cli = spawnCli('svc', ['plan', ...args], {});
  let stdout = '';
  let stderr = '';
  cli.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  cli.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { code } = await cli.exited;
  return { code, stdout, stderr };
}

interface JobView {
  readonly id: string;
  readonly job: string;
  readonly name: string;
  readonly runs_on: unknown;
  readonly needs: readonly string[];
  readonly matrix: Record<string, unknown> | null;
  readonly steps: number;
}

describe('svc plan --json', () => {
  it('prints the expanded jobs of a matrix workflow with needs and a local reusable workflow', async () => {
    const run = await svcPlan('-f', PIPELINE, '--json');
    assert.equal(run.code, 0, run.stderr);
    const plan = JSON.parse(run.stdout) as { workflow: Record<string, unknown>; jobs: JobView[] };
    assert.equal(plan.workflow['name'], 'CI');
    assert.equal(plan.workflow['path'], '.github/workflows/ci.yml');
    assert.equal(plan.workflow['event'], 'push');
    assert.equal(plan.workflow['jobs'], 9);
    assert.deepEqual(
      plan.jobs.map((job) => [job.id, job.name, job.runs_on, job.needs, job.steps]),
      [
        ['lint', 'lint', ['ubuntu-latest'], [], 4],
        ['test[0]', 'test (ubuntu-latest, 20)', ['ubuntu-latest'], [], 5],
        ['test[1]', 'test (ubuntu-latest, 22)', ['ubuntu-latest'], [], 5],
        ['test[2]', 'test (windows-latest, 22)', ['windows-latest'], [], 5],
        ['test[3]', 'test (macos-latest, 20)', ['macos-latest'], [], 5],
        ['test[4]', 'test (macos-latest, 22)', ['macos-latest'], [], 5],
        ['build/compile', 'build / compile', ['ubuntu-latest'], ['lint', 'test'], 2],
        ['build/package', 'build / package', ['ubuntu-latest'], ['build/compile'], 1],
        ['publish', 'publish', ['ubuntu-latest'], ['build/compile', 'build/package'], 1],
      ],
    );
    assert.deepEqual(plan.jobs[1]?.matrix, { os: 'ubuntu-latest', node: 20 });
    assert.deepEqual(plan.jobs[2]?.matrix, { os: 'ubuntu-latest', node: 22, coverage: true });
    assert.equal(plan.jobs[0]?.matrix, null);
  });

  it('leaves out step commands, environments, permissions and secrets', async () => {
    const run = await svcPlan('-f', PIPELINE, '--json');
    assert.equal(run.code, 0, run.stderr);
    for (const hidden of ['npm publish', 'npm run lint', 'environment', 'npmjs.com', 'permissions', 'id-token', 'NPM_TOKEN', 'secrets']) {
      assert.ok(!run.stdout.includes(hidden), `${hidden} is in the plan`);
    }
  });
});

describe('svc plan outside a git repository', () => {
  it('plans for refs/heads/main at a zero commit, resolving local calls from the directory above .github', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-plan-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(join(FIXTURES, 'pipeline'), dir, { recursive: true });
    const run = await svcPlan('-f', join(dir, '.github/workflows/ci.yml'), '--json');
    assert.equal(run.code, 0, run.stderr);
    const plan = JSON.parse(run.stdout) as { workflow: Record<string, unknown>; jobs: JobView[] };
    assert.equal(plan.workflow['ref'], 'refs/heads/main');
    assert.equal(plan.workflow['sha'], '0'.repeat(40));
    assert.ok(plan.jobs.some((job) => job.id === 'build/package'));
  });
});

describe('svc plan (terminal)', () => {
  it('shows the jobs stage by stage, with runners and matrix instances', async () => {
    const run = await svcPlan('-f', PIPELINE);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^CI \(\.github\/workflows\/ci\.yml\)\n/);
    assert.match(run.stdout, /9 jobs in 4 stages/);
    assert.match(run.stdout, /Stage 1\n {2}lint +ubuntu-latest\n {2}test +\(matrix, 5 jobs, no fail-fast\)\n {4}test \(ubuntu-latest, 20\) +ubuntu-latest\n/);
    assert.match(run.stdout, /Stage 2\n {2}build \/ compile +ubuntu-latest +needs: lint, test\n/);
    assert.match(run.stdout, /Stage 4\n {2}publish +ubuntu-latest +needs: build +if: github\.ref == 'refs\/heads\/main'\n/);
  });

  it('draws the graph with --graph', async () => {
    const run = await svcPlan('-f', PIPELINE, '--graph');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /│ lint +│ │ test +│/);
    assert.match(run.stdout, /│ matrix × 5 │/);
    assert.match(run.stdout, /▼\n┌─+┐\n│ build \/ compile +│/);
  });

  it('plans a workflow the event does not trigger, with a note', async () => {
    const run = await svcPlan('-f', PIPELINE, '--payload', join(FIXTURES, 'pipeline/push-feature.json'));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /note: the push event does not trigger this workflow \(branch 'feature\/login' does not match branches\); planned anyway/);
    assert.match(run.stdout, /event {8}push refs\/heads\/feature\/login/);
  });

  it('shows a concurrency group that queues (queue: max) in the header and the JSON', async () => {
    const run = await svcPlan('-f', QUEUE);
    assert.equal(run.code, 0, run.stderr);
    // The group names the ref of the git work tree the fixture is in (this repository's).
    assert.match(run.stdout, /^ {2}concurrency {2}deploy-\S+ \(queue: max, up to 100 runs wait in order\)$/m);
    const json = await svcPlan('-f', QUEUE, '--json');
    const plan = JSON.parse(json.stdout) as { workflow: { concurrency: { group: string } } };
    assert.deepEqual(plan.workflow.concurrency, { group: plan.workflow.concurrency.group, cancel_in_progress: false, queue: 'max' });
    assert.match(plan.workflow.concurrency.group, /^deploy-/);
  });

  it('invents no pull request for a local pull_request event, and says it cannot match the filters', async () => {
    const run = await svcPlan('-f', PIPELINE, '--event', 'pull_request', '--json');
    assert.equal(run.code, 0, run.stderr);
    const plan = JSON.parse(run.stdout) as { workflow: Record<string, unknown> };
    assert.equal(plan.workflow['trigger'], 'undetermined');
    assert.match(run.stderr, /cannot tell whether the pull_request event triggers this workflow .*--payload/);
  });
});

describe('svc plan: errors', () => {
  it('prints every error of an invalid workflow as file:line:col and exits 1', async () => {
    const run = await svcPlan('-f', join(FIXTURES, 'invalid/.github/workflows/invalid.yml'), '--json');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      ".github/workflows/invalid.yml:5:24: Unexpected value 'maybe'\n.github/workflows/invalid.yml:11:22: Unexpected value 'soon'\n",
    );
  });

  it("refuses queue: max beside cancel-in-progress: true, and a dispatch's undeclared input, as GitHub does", async () => {
    const both = await svcPlan('-f', join(FIXTURES, 'queue/.github/workflows/cancelling.yml'));
    assert.equal(both.code, 1);
    assert.equal(both.stderr, ".github/workflows/cancelling.yml:6:3: 'queue: max' cannot be combined with 'cancel-in-progress: true'.\n");
    const dispatch = await svcPlan('-f', QUEUE, '--event', 'workflow_dispatch', '--payload', join(FIXTURES, 'queue/unexpected-input.json'));
    assert.equal(dispatch.code, 1);
    assert.equal(dispatch.stderr, '.github/workflows/deploy.yml: Unexpected inputs provided: ["verbose"]\n');
  });

  it('says that a remote reusable workflow needs the server, naming the job', async () => {
    const run = await svcPlan('-f', join(FIXTURES, 'remote/.github/workflows/remote.yml'));
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      ".github/workflows/remote.yml:9:11: job 'release' calls the remote reusable workflow octo-org/shared/.github/workflows/release.yml@v2: " +
        'remote reusable workflows need the server (svc plan reads local files only)\n',
    );
  });

  it('refuses a file that does not exist and a payload that is not a JSON object', async () => {
    const missing = await svcPlan('-f', join(FIXTURES, 'nowhere.yml'));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^svc plan: cannot read the workflow file .*nowhere\.yml: ENOENT\n$/);
    const badPayload = await svcPlan('-f', PIPELINE, '--payload', PIPELINE);
    assert.equal(badPayload.code, 1);
    assert.match(badPayload.stderr, /^svc plan: --payload .*ci\.yml: not valid JSON/);
  });
});
