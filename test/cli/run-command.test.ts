/**
 * `svc run` as a user runs it: in a git repository with uncommitted changes, against `svc
 * serve` with a real svc-runner taking the jobs. The workflows are the ones in examples/.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isolateGitConfig } from '../snapshots/support.js';
import { EXAMPLES_DIR, gitRepository, startServerAndRunner, svcRun, type RunServer } from '../local-runs/run-cli-harness.js';
import { CLOSURE, SLOW } from '../e2e/pool-workflows.js';

isolateGitConfig();

const example = (name: string) => readFile(join(EXAMPLES_DIR, '.github/workflows', name), 'utf8');

/** One deploy at a time, the others in line (`queue: max`); the job waits for `gate` to exist. */
function queuedDeploy(gate: string): string {
  return `on: push
concurrency:
  group: deploy
  queue: max
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: |
          while [ ! -f '${gate}' ]; do sleep 0.1; done
          echo "deployed run $GITHUB_RUN_ID"
`;
}

/** Required inputs with and without a default, and typed ones, echoed by the job. */
const MANUAL = `on:
  workflow_dispatch:
    inputs:
      level: { type: choice, options: [info, warning], required: true, default: warning }
      count: { type: number, default: 2 }
      dry: { type: boolean }
      target: { type: environment, required: true }
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo "level=\${{ inputs.level }} count=\${{ inputs.count }} dry=\${{ inputs.dry }} target=\${{ github.event.inputs.target }}"
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('svc run against svc serve and a runner', () => {
  let server: RunServer;
  before(async () => {
    server = await startServerAndRunner();
  });
  after(async () => {
    await server.stop();
  });

  it('runs a matrix and jobs passing outputs through needs, with the uncommitted change, and exits 0', async (t) => {
    const needs = await example('needs-outputs.yml');
    // The committed workflow publishes to beta; the working tree says stable and adds a matrix file.
    const repo = await gitRepository({ '.github/workflows/needs-outputs.yml': needs }, {
      '.github/workflows/needs-outputs.yml': needs.replace('channel=beta', 'channel=stable'),
      '.github/workflows/matrix.yml': await example('matrix.yml'),
    });
    t.after(repo.remove);
    const outputs = svcRun(['-f', '.github/workflows/needs-outputs.yml'], server.cliEnv, repo.dir);
    assert.equal(await outputs.exited, 0, outputs.stdout() + outputs.stderr());
    const text = outputs.stdout();
    assert.match(text, /^job version: (queued|in_progress)$/m);
    assert.match(text, /^publish \| publishing 1\.2\.\d+ to stable$/m);
    assert.match(text, /^jobs:\n {2}version +success +\d+s\n {2}build +success +\d+s\n {2}publish +success +\d+s\nrun \d+: success in \d+s\n$/m);
    assert.match(outputs.stderr(), /^svc run: run \d+ of \.github\/workflows\/needs-outputs\.yml \(push\): http:\/\/127\.0\.0\.1:\d+\/api\/v1\/runs\/\d+$/m);

    const matrix = svcRun(['--file', '.github/workflows/matrix.yml'], server.cliEnv, join(repo.dir, '.github'));
    assert.equal(await matrix.exited, 0, matrix.stdout() + matrix.stderr());
    for (const name of ['test (alpha, small)', 'test (alpha, large)', 'test (beta, small)', 'test (beta, large)', 'done']) {
      assert.match(matrix.stdout(), new RegExp(`^job ${name.replace(/[()]/g, '\\$&')}: success$`, 'm'));
    }
    assert.match(matrix.stdout(), /^test \(beta, large\) \| testing beta with a large input$/m);
    assert.match(matrix.stdout(), /^run \d+: success in \d+s$/m);
  });

  it('a failing step ends the run failed after its always() cleanup: exit 1', async (t) => {
    const repo = await gitRepository({ 'README.md': 'x\n' }, { '.github/workflows/failing-with-cleanup.yml': await example('failing-with-cleanup.yml') });
    t.after(repo.remove);
    const run = svcRun([], server.cliEnv, repo.dir);
    assert.equal(await run.exited, 1, run.stdout() + run.stderr());
    const text = run.stdout();
    assert.match(text, /^fail \| this step fails on purpose$/m);
    assert.match(text, /^fail \| cleanup ran$/m);
    assert.match(text, /^fail \| a step failed; reporting it$/m);
    assert.doesNotMatch(text, /never printed/);
    assert.match(text, /^job fail: failure$/m);
    assert.match(text, /^run \d+: failure in \d+s\n$/m);
  });

  it('--job runs only the job asked for and the jobs it needs; --json prints the event feed', async (t) => {
    const repo = await gitRepository({ '.github/workflows/closure.yml': CLOSURE });
    t.after(repo.remove);
    const run = svcRun(['--job', 'build', '--json'], server.cliEnv, repo.dir);
    assert.equal(await run.exited, 0, run.stdout() + run.stderr());
    const events = run
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; run_id: number; job_id?: number; status?: string; line?: string });
    assert.ok(events.length > 0);
    const runIds = new Set(events.map((event) => event.run_id));
    assert.equal(runIds.size, 1);
    assert.deepEqual(events[0]?.type, 'run_status');
    assert.equal(events.filter((event) => event.type === 'run_status').at(-1)?.status, 'success');
    const logs = events.filter((event) => event.type === 'log').map((event) => event.line ?? '');
    assert.ok(logs.some((line) => line.endsWith('setup-ran')), logs.join('\n'));
    assert.ok(logs.some((line) => line.endsWith('build-ran')), logs.join('\n'));
    assert.ok(!logs.some((line) => line.endsWith('unrelated-ran')), logs.join('\n'));
    assert.equal(new Set(events.filter((event) => event.job_id !== undefined).map((event) => event.job_id)).size, 2, 'two jobs: build and setup');
    // The summary goes to stderr, so stdout stays NDJSON.
    assert.match(run.stderr(), /^ {2}setup +success/m);
    assert.doesNotMatch(run.stderr(), /unrelated/);

    const unknown = svcRun(['--job', 'nope'], server.cliEnv, repo.dir);
    assert.equal(await unknown.exited, 2);
    assert.match(unknown.stderr(), /^svc run: \.github\/workflows\/closure\.yml has no job 'nope' \(jobs: setup, build, unrelated\) \(HTTP 404\)$/m);
  });

  it('Ctrl-C cancels the run and follows it to its end (exit 130); its always() step still runs', async (t) => {
    const repo = await gitRepository({ '.github/workflows/slow.yml': SLOW });
    t.after(repo.remove);
    const run = svcRun([], server.cliEnv, repo.dir);
    // Once its first step runs (its lines show while it runs): a job cancelled while it is
    // still being set up runs no steps at all, as on GitHub.
    await run.waitFor(/^wait \| started$/m);
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 130, run.stdout() + run.stderr());
    assert.match(run.stderr(), /^svc run: cancelling run \d+ \(Ctrl-C again to stop waiting; the server still cancels it\)$/m);
    assert.match(run.stdout(), /^job wait: cancelled$/m);
    assert.match(run.stdout(), /^wait \| cleanup-after-cancel$/m);
    assert.doesNotMatch(run.stdout(), /^wait \| never$/m, 'cancelled before its last command (the command line shown as the step starts may name it)');
    assert.match(run.stdout(), /^run \d+: cancelled in \d+s\n$/m);
  });

  it('concurrency queue: max: runs submitted while one runs wait in line, none is cancelled, and they run in order', async (t) => {
    // The job waits for a file the test writes once every run is in: the line is seen as it is.
    const gate = await mkdtemp(join(tmpdir(), 'svc-queue-gate-'));
    t.after(() => rm(gate, { recursive: true, force: true }));
    const repo = await gitRepository({ '.github/workflows/deploy.yml': queuedDeploy(join(gate, 'go')) });
    t.after(repo.remove);
    const runs = [];
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const run = svcRun([], server.cliEnv, repo.dir);
      await run.waitFor(/^svc run: run \d+ of /m);
      ids.push(Number(/^svc run: run (\d+) of /m.exec(run.stderr())?.[1]));
      if (i === 0) await run.waitFor(/^job deploy: in_progress$/m);
      runs.push(run);
    }
    const view = async (id: number) => {
      const response = await fetch(`${server.base}/api/v1/runs/${id}`, { headers: { authorization: `Bearer ${server.cliEnv['SVC_TOKEN'] ?? ''}` } });
      return (await response.json()) as { status: string; reason: string | null; started_at: string | null };
    };
    for (const id of ids.slice(1)) assert.deepEqual(await view(id).then((r) => [r.status, r.reason]), ['pending', 'concurrency'], `run ${id} waits in line`);

    await writeFile(join(gate, 'go'), '');
    for (const [index, run] of runs.entries()) {
      assert.equal(await run.exited, 0, run.stdout() + run.stderr());
      assert.match(run.stdout(), new RegExp(`^deploy \\| deployed run ${ids[index] ?? 0}$`, 'm'));
    }
    const started = await Promise.all(ids.map(async (id) => (await view(id)).started_at ?? ''));
    assert.deepEqual([...started].sort(), started, 'the runs started in the order they came');
  });

  it('workflow_dispatch inputs from --payload: defaults fill the omitted ones; an undeclared one is refused by name (exit 2)', async (t) => {
    const repo = await gitRepository({
      '.github/workflows/manual.yml': MANUAL,
      'inputs.json': JSON.stringify({ inputs: { target: 'production' } }),
      'extra.json': JSON.stringify({ inputs: { target: 'production', verbose: '1' } }),
    });
    t.after(repo.remove);
    const run = svcRun(['--event', 'workflow_dispatch', '--payload', 'inputs.json'], server.cliEnv, repo.dir);
    assert.equal(await run.exited, 0, run.stdout() + run.stderr());
    assert.match(run.stdout(), /^deploy \| level=warning count=2 dry=false target=production$/m);

    const refused = svcRun(['--event', 'workflow_dispatch', '--payload', 'extra.json'], server.cliEnv, repo.dir);
    assert.equal(await refused.exited, 2, refused.stdout() + refused.stderr());
    assert.match(refused.stderr(), /^svc run: the workflow_dispatch inputs do not fit \.github\/workflows\/manual\.yml: Unexpected inputs provided: \["verbose"\]/m);
  });

  it('workflow_dispatch inputs from --input and --input-file: --input implies the event and wins over the file', async (t) => {
    const repo = await gitRepository({ '.github/workflows/manual.yml': MANUAL, 'inputs.json': JSON.stringify({ target: 'staging', level: 'warning', dry: true }) });
    t.after(repo.remove);
    const run = svcRun(['--input', 'target=production', '--input', 'level=info', '--input', 'count=3'], server.cliEnv, repo.dir);
    assert.equal(await run.exited, 0, run.stdout() + run.stderr());
    assert.match(run.stdout(), /^deploy \| level=info count=3 dry=false target=production$/m);
    assert.match(run.stderr(), /^svc run: run-supplied inputs: target, level, count$/m);
    assert.match(run.stderr(), /^svc run: run \d+ of \.github\/workflows\/manual\.yml \(workflow_dispatch\): /m);

    const fromFile = svcRun(['--input-file', 'inputs.json', '--input', 'level=info'], server.cliEnv, repo.dir);
    assert.equal(await fromFile.exited, 0, fromFile.stdout() + fromFile.stderr());
    assert.match(fromFile.stdout(), /^deploy \| level=info count=2 dry=true target=staging$/m);
  });
});

describe('svc run without a server, and with bad input', () => {
  it('no server: exit 3 with how to start one', async (t) => {
    const repo = await gitRepository({ '.github/workflows/closure.yml': CLOSURE });
    t.after(repo.remove);
    const port = await freePort();
    const run = svcRun([], { HOME: repo.dir, SVC_URL: `http://127.0.0.1:${port}`, SVC_TOKEN: 'any-token' }, repo.dir);
    assert.equal(await run.exited, 3, run.stdout() + run.stderr());
    assert.equal(run.stderr(), `svc run: no svc server at http://127.0.0.1:${port}; start one with \`svc serve\` (or set SVC_URL)\n`);
    assert.equal(run.stdout(), '');
  });

  it('a flag that is not built yet and a payload that is not JSON: exit 2, saying which', async (t) => {
    const repo = await gitRepository({ '.github/workflows/closure.yml': CLOSURE, 'event.json': '{"action": ' });
    t.after(repo.remove);
    const env = { HOME: repo.dir, SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'any-token' };
    const push = svcRun(['--push'], env, repo.dir);
    assert.equal(await push.exited, 2);
    assert.equal(push.stderr(), 'svc run: not implemented yet: svc run --push\n');
    const payload = svcRun(['--payload', 'event.json'], env, repo.dir);
    assert.equal(await payload.exited, 2);
    assert.match(payload.stderr(), /^svc run: --payload file event\.json is not valid JSON: /);
  });

  it('run-supplied values are checked before anything is sent, and no value is repeated (exit 2, not 3: the server is never asked)', async (t) => {
    const repo = await gitRepository({ '.github/workflows/closure.yml': CLOSURE, '.secrets': 'OK=1\nhunter2\n' });
    t.after(repo.remove);
    const env = { HOME: repo.dir, SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'any-token' };
    // Every --secret counts, not only the last.
    const unset = svcRun(['--secret', 'DEPLOY_KEY', '--secret', 'OK=1'], env, repo.dir);
    assert.equal(await unset.exited, 2, unset.stdout() + unset.stderr());
    assert.match(unset.stderr(), /^svc run: secret DEPLOY_KEY has no value: --secret DEPLOY_KEY reads the environment variable DEPLOY_KEY \(unset or empty here\) or asks on a terminal \(stdin is not one\)/);
    const badName = svcRun(['--secret', '1KEY=hunter2'], env, repo.dir);
    assert.equal(await badName.exited, 2);
    assert.equal(badName.stderr(), "svc run: --secret: '1KEY' is not a secret name: use letters, digits and _, not starting with a digit (e.g. DEPLOY_KEY)\n");
    const badFile = svcRun(['--secret-file', '.secrets'], env, repo.dir);
    assert.equal(await badFile.exited, 2);
    assert.equal(badFile.stderr(), 'svc run: --secret-file file .secrets line 2: expected NAME=value\n');
    const wrongEvent = svcRun(['--input', 'x=1', '--event', 'push'], env, repo.dir);
    assert.equal(await wrongEvent.exited, 2);
    assert.match(wrongEvent.stderr(), /^svc run: --input and --input-file are for the workflow_dispatch event \(the event is push\)/);
  });
});
