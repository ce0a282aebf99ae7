/**
 * Two nodes behind one real proxy behave as one server (issue 16): two `svc serve` on one
 * PostgreSQL schema with one notifier, each with its own pool, behind nginx configured by
 * docs/multi-node/nginx-svc.conf (round-robin, not sticky), every request of the guests and of
 * `svc run` through the proxy landing on either node. Cases: a run submitted through the proxy
 * is checked out through the relay by a guest of each node; a run submitted to one node saves a
 * cache and uploads an artifact on one node's guest that the other node's guest restores and
 * downloads, while its log lines stream live from both nodes' events.ndjson and `svc logs` prints
 * the same from both; Ctrl-C of `svc run` on one node cancels the job another node's guest runs;
 * kill -9 of a node and its guests mid-job has the job failed or requeued by the other node.
 *
 * One cluster per notifier (Redis pub/sub, PostgreSQL LISTEN/NOTIFY), shared by the tests of
 * that notifier. Skipped with a message outside CI when PostgreSQL, Redis or nginx is missing;
 * in CI a missing one fails (nginx is installed by .ci/run).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it, test } from 'node:test';
import { gitRepository, spawnTs, svcRun, useBundle, type Spawned } from '../local-runs/run-cli-harness.js';
import { isolateGitConfig } from '../snapshots/support.js';
import { createActionMirror, type ActionMirror } from '../support/action-mirror.js';
import { requireService } from '../support/services.js';
import { api } from '../vm-pool/support.js';
import type { RunView } from '../../plugins/engine/run-view.js';
import { startCluster, type Cluster, type ClusterNode, type NotifierKind } from './cluster.js';
import { findNginx } from './nginx-proxy.js';
import { toolkitAction } from './toolkit-action.js';

isolateGitConfig();
after(useBundle('multi-node'));

const postgres = await requireService('postgres');
const redis = await requireService('redis');
const nginx = findNginx();
const nginxMissing = nginx === undefined ? 'nginx is not installed (apt-get install nginx; .ci/run does)' : false;
if (nginxMissing !== false) {
  if (process.env['CI'] === 'true') {
    test('nginx is installed', () => assert.fail(nginxMissing));
  } else process.stderr.write(`\n!! multi-node suite SKIPPED: ${nginxMissing}\n\n`);
}

/** Checks the run's commit out through the relay (as RELAY in test/e2e/pool-workflows.ts). */
const CHECKOUT = `      - name: Check out
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q .
          auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c http.extraheader="$auth" fetch -q --depth=1 "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" "$GITHUB_SHA"
          git checkout -q FETCH_HEAD
          echo "checked out $(cat payload.txt) on $RUNNER_NAME"`;

/** One job on each node's guest, each checking the run's commit out through the relay. */
const checkoutOnBoth = `name: Checkout on both
on: push
jobs:
  on-a:
    runs-on: [self-hosted, node-a]
    steps:
${CHECKOUT}
  on-b:
    runs-on: [self-hosted, node-b]
    steps:
${CHECKOUT}
`;

/**
 * `save` runs on a guest of node `saver`, `restore` on one of node `restorer`: one saves a cache
 * and uploads an artifact that the other restores and downloads, with the toolkit clients of a
 * remote action (`acme/toolkit@v1`, from the action mirror: its archive is a blob too).
 */
const acrossNodes = (saver: string, restorer: string, payload: string) => `name: Across nodes
on: push
jobs:
  save:
    runs-on: [self-hosted, node-${saver}]
    steps:
      - name: Build
        run: |
          mkdir -p deps dist
          echo "deps of $GITHUB_SHA" > deps/lock.txt
          echo "${payload}" > dist/payload.txt
      - uses: acme/toolkit@v1
        with: { op: cache-save, path: deps, name: "deps-\${{ github.sha }}-\${{ github.run_id }}" }
      - uses: acme/toolkit@v1
        with: { op: artifact-upload, path: dist, name: dist }
      - name: Talk
        run: for i in 1 2 3 4 5; do echo "save says $i"; sleep 0.4; done
  restore:
    needs: save
    runs-on: [self-hosted, node-${restorer}]
    steps:
      - uses: acme/toolkit@v1
        with: { op: cache-restore, path: deps, name: "deps-\${{ github.sha }}-\${{ github.run_id }}" }
      - uses: acme/toolkit@v1
        with: { op: artifact-download, path: got, name: dist }
      - name: Check
        run: |
          echo "cache has: $(cat deps/lock.txt)"
          echo "artifact has: $(cat got/payload.txt)"
          for i in 1 2 3; do echo "restore says $i"; sleep 0.4; done
`;

/** A job on node A's guest that waits until it is cancelled (SLOW of test/e2e/pool-workflows.ts). */
const SLOW_ON_A = `name: Slow
on: push
jobs:
  wait:
    runs-on: [self-hosted, node-a]
    steps:
      - run: echo started && sleep 120 && echo never
      - if: always()
        run: echo cleanup-after-cancel
`;

/** What a follower of events.ndjson received, and when (ms since the epoch) each log line came. */
interface Followed {
  readonly lines: { readonly at: number; readonly line: string; readonly jobId: number }[];
  readonly done: Promise<void>;
  abort(): void;
}

/** Follows `GET /api/v1/runs/{id}/events.ndjson` on one node directly, until it ends. */
function followEvents(node: ClusterNode, runId: number): Followed {
  const lines: Followed['lines'][number][] = [];
  const url = new URL(`${node.base}/api/v1/runs/${runId}/events.ndjson`);
  let req: ReturnType<typeof request> | undefined;
  const done = new Promise<void>((resolve, reject) => {
    req = request(url, { headers: { authorization: `Bearer ${node.cliEnv['SVC_TOKEN'] ?? ''}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`events.ndjson on node ${node.name}: ${res.statusCode}`));
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        rest += chunk;
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        for (const part of parts) {
          const event = JSON.parse(part) as { type: string; line?: string; job_id?: number };
          if (event.type === 'log') lines.push({ at: Date.now(), line: event.line ?? '', jobId: event.job_id ?? 0 });
        }
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { lines, done, abort: () => req?.destroy() };
}

const output = (run: Spawned) => `${run.stdout()}${run.stderr()}`;

async function runIdOf(run: Spawned): Promise<number> {
  await run.waitFor(/^svc run: run \d+ of /m, 120_000);
  return Number(/^svc run: run (\d+) of /m.exec(run.stderr())?.[1]);
}

const NOTIFIERS: readonly NotifierKind[] = ['redis', 'postgres'];

const skip = postgres.skip || redis.skip || nginxMissing;

// The two clusters run side by side: most of their time is waiting (guests starting, a dead
// node's lease running out), so the file takes about as long as its longer cluster.
describe('two nodes behind nginx', { skip, concurrency: NOTIFIERS.length }, () => {
  for (const notifier of NOTIFIERS) {
    describe(`${notifier} notifier`, () => {
      let cluster: Cluster;
      let mirror: ActionMirror;
      before(async () => {
        mirror = await createActionMirror();
        await mirror.commit('acme/toolkit', { files: await toolkitAction(''), tags: ['v1'] });
        cluster = await startCluster({ nginx: nginx ?? '', postgresUrl: postgres.url ?? '', redisUrl: redis.url ?? '', notifier, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir } });
      });
      after(async () => {
        await cluster?.stop();
        await mirror?.remove();
      });

      it('a job on each node checks the run submitted through the proxy out through the relay', async (t) => {
        const repo = await gitRepository({ '.github/workflows/checkout.yml': checkoutOnBoth, 'payload.txt': 'checked\n' });
        t.after(repo.remove);
        const run = svcRun([], cluster.cliEnv, repo.dir);
        assert.equal(await run.exited, 0, output(run));
        assert.match(run.stdout(), /^on-a \| checked out checked on svc-pool-/m);
        assert.match(run.stdout(), /^on-b \| checked out checked on svc-pool-/m);
      });

      // Both directions on the first notifier; the second one's wake-ups are proven by one.
      const directions = [['b', 'a', 'b'], ['a', 'b', 'a']] as const;
      for (const [submitTo, saver, restorer] of notifier === NOTIFIERS[0] ? directions : directions.slice(0, 1)) {
        it(`submitted to node ${submitTo}, saved on ${saver}'s guest, restored on ${restorer}'s: cache, artifact, logs from both nodes`, async (t) => {
          const payload = `payload ${notifier} ${submitTo} ${Date.now()}`;
          const repo = await gitRepository({ '.github/workflows/across.yml': acrossNodes(saver, restorer, payload) });
          t.after(repo.remove);
          const [a, b] = cluster.nodes;
          const submitNode = submitTo === 'a' ? a : b;
          const run = svcRun([], submitNode.cliEnv, repo.dir);
          const runId = await runIdOf(run);
          const followers = [followEvents(a, runId), followEvents(b, runId)];
          t.after(() => followers.forEach((follower) => follower.abort()));
          const code = await run.exited;
          const finishedAt = Date.now();
          assert.equal(code, 0, `${output(run)}\n${cluster.logs()}`);
          assert.match(run.stdout(), new RegExp(`^restore \\| cache has: deps of [0-9a-f]{40}$`, 'm'));
          assert.match(run.stdout(), new RegExp(`^restore \\| artifact has: ${payload}$`, 'm'));

          const view = await api<RunView>(cluster.proxy.url, `/api/v1/runs/${runId}`);
          assert.equal(view.conclusion, 'success');
          await Promise.all(followers.map((follower) => follower.done));
          for (const [index, follower] of followers.entries()) {
            const node = cluster.nodes[index]?.name;
            const said = follower.lines.map((entry) => entry.line);
            for (const line of ['save says 1', 'save says 5', 'restore says 1', 'restore says 3']) {
              assert.ok(said.some((text) => text.endsWith(line)), `node ${node}'s events.ndjson has no '${line}':\n${said.join('\n')}`);
            }
            // Live, not only replayed: the save job's lines came while the run still ran.
            const firstSave = follower.lines.find((entry) => entry.line.endsWith('save says 1'));
            assert.ok(firstSave !== undefined && firstSave.at < finishedAt - 500, `node ${node} delivered the save job's lines only at the end`);
          }
          // The stored logs, as `svc logs` prints them, are the same from either node.
          const printed: string[] = [];
          for (const node of cluster.nodes) {
            const logs = spawnTs('cli/svc.ts', ['logs', String(runId)], node.cliEnv, repo.dir);
            // A node that cannot be reached here has died: its own log says why.
            assert.equal(await logs.exited, 0, `${output(logs)}\n${cluster.logs()}`);
            assert.match(logs.stdout(), /save says 5/);
            assert.match(logs.stdout(), /restore says 3/);
            printed.push(logs.stdout());
          }
          assert.equal(printed[0], printed[1]);
        });
      }

      it("Ctrl-C of svc run on one node cancels the job another node's guest runs (exit 130); its always() step still runs", async (t) => {
        const repo = await gitRepository({ '.github/workflows/slow.yml': SLOW_ON_A });
        t.after(repo.remove);
        const run = svcRun([], cluster.nodes[1].cliEnv, repo.dir);
        await run.waitFor(/^wait \| started$/m);
        run.child.kill('SIGINT');
        assert.equal(await run.exited, 130, `${output(run)}\n${cluster.logs()}`);
        assert.match(run.stdout(), /^job wait: cancelled$/m);
        assert.match(run.stdout(), /^wait \| cleanup-after-cancel$/m);
        assert.doesNotMatch(run.stdout(), /^wait \| never$/m);
      });

      // Last: node A stays dead for the rest of this cluster's life. Node liveness is the store's,
      // not the notifier's: on one notifier.
      it('a node killed mid-job with its guests (the machine dies): the job is failed or requeued within 90 s with a reason', { skip: notifier === NOTIFIERS[0] ? false : 'node liveness does not depend on the notifier: run on the first one' }, async (t) => {
        const repo = await gitRepository({ '.github/workflows/slow.yml': SLOW_ON_A });
        t.after(repo.remove);
        const [a, b] = cluster.nodes;
        const run = svcRun([], b.cliEnv, repo.dir);
        t.after(() => void run.child.kill('SIGKILL'));
        const runId = await runIdOf(run);
        await run.waitFor(/^wait \| started$/m);
        await a.crash();
        const deadline = Date.now() + 90_000;
        let job = (await api<RunView>(b.base, `/api/v1/runs/${runId}`)).jobs[0];
        while (job?.status === 'in_progress' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          job = (await api<RunView>(b.base, `/api/v1/runs/${runId}`)).jobs[0];
        }
        assert.ok(job !== undefined);
        assert.notEqual(job.status, 'in_progress', `90 s after node a died its job is still in progress:\n${JSON.stringify(job, null, 2)}`);
        if (job.status === 'completed') assert.equal(job.conclusion, 'failure');
        assert.ok((job.reason ?? '') !== '', `the job says why: ${JSON.stringify(job)}`);
        assert.ok(job.steps.every((step) => step.status !== 'in_progress'), `no step left in progress: ${JSON.stringify(job.steps)}`);
      });
    });
  }
});
