// `npm run bench:forge-checkout [-- --repo=<git dir or URL>] [-- --runs=N]`: a forge run's checkout
// through the checkout relay against `git clone` of the same bare repository on the same disk.
// The forge is the test forge simulator (git smart HTTP on loopback) holding a copy of `--repo`
// (default: this checkout's own repository); svc is a started host (engine, runner-protocol,
// checkout-relay; SQLite, temp data dir) with a job of a forge run (trigger `webhook`). Prints,
// for a full clone and a depth-1 clone (actions/checkout's default): the relay with a cold mirror
// (the first job of a push on a node: svc fetches from the forge, then serves), warm (the next
// jobs: the mirror has the commit), `git clone --no-local` of the bare repository (the pack
// transfer without HTTP or svc), the ratios, and how many fetches the forge served. Warm and
// baseline figures are the median of N runs (default 3). Asserts nothing; runs under node:test
// only for its cleanups.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { selectRuns } from '../core/engine/index.js';
import { basicHeader, jobOf, relayHost, type CheckoutJob } from '../test/checkout-relay/support.js';
import { dispatchNext, WORKFLOW_PATH } from '../test/runner-protocol/worker-job.js';
import { isolateGitConfig, TEST_GIT_ENV } from '../test/snapshots/support.js';
import { startForgeSimulator, type ForgeSimulator } from '../test/support/forge-simulator/index.js';
import { tempDir } from '../test/support/services.js';

isolateGitConfig();
const execFileAsync = promisify(execFile);
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Math.max(1, Number(option('runs') ?? 3));
const TOKEN = 'ghp_bench_forge_checkout';
const REPOSITORY = 'bench/app';
const WORKFLOW = 'on: push\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - uses: actions/checkout@v4\n';

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, { cwd, env: { ...TEST_GIT_ENV, GIT_TERMINAL_PROMPT: '0' }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A host with a forge run of the forge's `main` and its job taken (a fresh, cold mirror). */
async function forgeJob(t: TestContext, forge: ForgeSimulator, sha: string): Promise<CheckoutJob> {
  const h = await relayHost(t, { SVC_FORGE_API_URL: forge.apiUrl, SVC_FORGE_TOKEN: TOKEN, SVC_FORGE_GIT_URL: forge.webUrl });
  const [selection] = await selectRuns({
    event: { name: 'push', payload: { ref: 'refs/heads/main', after: sha, repository: { full_name: REPOSITORY } }, ref: 'refs/heads/main', sha },
    repository: REPOSITORY,
    actor: 'bench',
    trigger: 'webhook',
    workflows: [{ path: WORKFLOW_PATH, content: WORKFLOW }],
    serverUrl: h.baseUrl,
  });
  if (selection?.kind !== 'run') throw new Error(`no run: ${JSON.stringify(selection)}`);
  const run = await h.engine.createRun(selection.input);
  return jobOf(h, await dispatchNext(h), sha, run.id);
}

test('bench:forge-checkout', { timeout: 60 * 60_000 }, async (t) => {
  const scratch = await tempDir(t);
  const forge = await startForgeSimulator(t, { token: TOKEN });
  await forge.repositories.create(REPOSITORY, { files: { 'placeholder.txt': 'replaced\n' } }, { private: true });
  const forgeDir = forge.repositories.get(REPOSITORY)?.dir ?? '';
  const source = option('repo') ?? (await git(process.cwd(), ['rev-parse', '--show-toplevel'])).trim();
  // The forge's main becomes the source's HEAD, with its tags.
  await git(forgeDir, ['fetch', '-q', '--no-tags', source, 'HEAD']);
  await git(forgeDir, ['update-ref', 'refs/heads/main', 'FETCH_HEAD']);
  await git(forgeDir, ['reset', '-q', '--hard']);
  await git(forgeDir, ['fetch', '-q', source, '+refs/tags/*:refs/tags/*']).catch(() => undefined);
  const sha = (await git(forgeDir, ['rev-parse', 'HEAD'])).trim();
  const bare = join(scratch, 'bare.git');
  await git(scratch, ['clone', '-q', '--bare', '--no-local', forgeDir, bare]);
  const commits = (await git(bare, ['rev-list', '--count', 'HEAD'])).trim();
  const files = (await git(bare, ['ls-tree', '-r', '--name-only', 'HEAD'])).trim().split('\n').length;
  const size = /size-pack: (\d+)/.exec(await git(bare, ['count-objects', '-v']))?.[1] ?? '?';

  let n = 0;
  const target = () => join(scratch, `clone-${(n += 1)}`);
  const baseline = (depth: boolean) => git(scratch, ['clone', '-q', '--no-local', ...(depth ? ['--depth', '1'] : []), `file://${bare}`, target()]);
  const relay = (job: CheckoutJob, depth: boolean) =>
    git(scratch, ['-c', `http.extraHeader=${basicHeader(job.token)}`, 'clone', '-q', ...(depth ? ['--depth', '1'] : []), `${new URL(job.serverUrl).origin}/${REPOSITORY}`, target()]);

  const lines: string[] = [];
  for (const depth of [false, true]) {
    const label = depth ? 'depth-1 clone' : 'full clone';
    const before = forge.gitFetches(REPOSITORY);
    const job = await forgeJob(t, forge, sha);
    const cold = await timed(() => relay(job, depth));
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run += 1) warm.push(await timed(() => relay(job, depth)));
    const local: number[] = [];
    for (let run = 0; run < RUNS; run += 1) local.push(await timed(() => baseline(depth)));
    const [c, w, l] = [cold, median(warm), median(local)];
    lines.push(
      `${label.padEnd(14)} relay cold ${c.toFixed(0).padStart(6)} ms (${(c / l).toFixed(1)}x)   relay warm ${w.toFixed(0).padStart(6)} ms (${(w / l).toFixed(1)}x)   git clone --no-local ${l.toFixed(0).padStart(6)} ms   forge fetches ${forge.gitFetches(REPOSITORY) - before}`,
    );
  }
  console.log(`bench:forge-checkout on ${process.platform}, node ${process.version}, ${(await git(scratch, ['--version'])).trim()}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`repository: ${source}: ${commits} commits on HEAD, ${files} files, pack ${size} KiB; ${RUNS} run(s) each, medians; ratio = relay / git clone of the same bare repository`);
  for (const line of lines) console.log(line);
});
