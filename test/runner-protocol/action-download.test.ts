/**
 * Action download info (§5.5) against a mirror of bare repositories: the Worker asks for the
 * actions its job declares with its job token, gets `owner/repo@ref` → commit and signed archive
 * URLs, and downloads the tarball over real HTTP; a batch with an undeclared remote is refused
 * whole (403), as is another job's token; a ref or repository the mirror lacks is a clear 404,
 * and with no source configured at all the answer says how to configure one (501). The forge
 * source is action-download-forge.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { selectRuns } from '../../core/engine/index.js';
import type { JsonObject } from '../../core/protocol/index.js';
import { buildMirror, HELLO_YML } from './action-download-fixture.js';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { ScriptedWorker } from './scripted-worker.js';
import { send, type HttpResult } from './vss-client.js';
import type { RunnerHost } from './runner-host.js';
import { createRun, dispatchNext, WORKFLOW_PATH } from './worker-job.js';

const LOCATION = '27d7f831-88c1-4719-8ca1-6a061dad90eb';
const ACTION_YML = HELLO_YML;

const WORKFLOW = `name: ci
on: push
jobs:
  a:
    runs-on: [self-hosted]
    steps:
      - uses: acme/hello@v1
      - uses: acme/hello/sub@main
      - uses: acme/hello@v9
      - uses: acme/absent@v1
  b:
    runs-on: [self-hosted]
    steps:
      - run: echo b
`;

function resolveActions(worker: ScriptedWorker, jobId: string, actions: readonly JsonObject[]): Promise<HttpResult> {
  return send([], 'POST', worker.url(LOCATION, {}, { jobId }), { headers: worker.auth, json: { actions } });
}

const LOCAL_COMPOSITE = `name: ci
on: push
jobs:
  a:
    runs-on: [self-hosted]
    steps:
      - uses: ./ci/setup
`;

/** A run at a snapshot commit of acme/widgets holding the workflow and \`ci/setup/action.yml\` (which uses acme/hello@main). */
async function snapshotRun(t: TestContext, h: RunnerHost): Promise<void> {
  const tree = mkdtempSync(join(tmpdir(), 'svc-tree-'));
  t.after(() => rmSync(tree, { recursive: true, force: true }));
  mkdirSync(join(tree, '.github', 'workflows'), { recursive: true });
  mkdirSync(join(tree, 'ci', 'setup'), { recursive: true });
  writeFileSync(join(tree, WORKFLOW_PATH), LOCAL_COMPOSITE);
  writeFileSync(join(tree, 'ci', 'setup', 'action.yml'), 'name: setup\ndescription: d\nruns:\n  using: composite\n  steps:\n    - uses: acme/hello@main\n');
  const archive = execFileSync('tar', ['-czf', '-', '-C', tree, '.']);
  const commit = await h.snapshots.importTar('acme/widgets', Readable.from(archive), { message: 'snapshot', authorName: 't', authorEmail: 't@example.com', timestamp: Date.UTC(2030, 0, 1) });
  const [selection] = await selectRuns({
    event: { name: 'push', payload: { ref: 'refs/heads/main', after: commit.sha, repository: { full_name: 'acme/widgets' } }, ref: 'refs/heads/main', sha: commit.sha },
    repository: 'acme/widgets',
    actor: 'octo',
    trigger: 'local',
    workflows: [{ path: WORKFLOW_PATH, content: LOCAL_COMPOSITE }],
    serverUrl: h.baseUrl,
  });
  assert.ok(selection?.kind === 'run');
  await h.engine.createRun(selection.input);
}

const ref = (nameWithOwner: string, at: string, path = ''): JsonObject => ({ nameWithOwner, ref: at, path });

for (const backend of RUNNER_BACKENDS) {
  describe(`action download info (${backend.kind})`, { skip: backend.skip }, () => {
    it('resolves declared actions from the mirror and serves their tarball through a signed URL', async (t) => {
      const mirror = buildMirror(t);
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
      await createRun(h, WORKFLOW);
      const a = await dispatchNext(h);
      const worker = new ScriptedWorker(a.info);
      await worker.connect();

      const result = await resolveActions(worker, a.info.jobId, [ref('acme/hello', 'v1'), ref('acme/hello', 'main', 'sub')]);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      const answers = (result.body as JsonObject)['actions'] as Record<string, JsonObject>;
      assert.deepEqual(Object.keys(answers).sort(), ['acme/hello@main', 'acme/hello@v1']);
      const v1 = answers['acme/hello@v1'] as JsonObject;
      assert.equal(v1['nameWithOwner'], 'acme/hello');
      assert.equal(v1['resolvedNameWithOwner'], 'acme/hello');
      assert.equal(v1['resolvedSha'], mirror.sha);
      assert.equal((answers['acme/hello@main'] as JsonObject)['resolvedSha'], mirror.sha);
      assert.equal(v1['authentication'], undefined, 'no token of its own: the runner sends github.token');
      const tarballUrl = String(v1['tarballUrl']);
      assert.ok(tarballUrl.startsWith(`${h.baseUrl}/_blobs/actions/acme/hello/${mirror.sha}.tar.gz?`), tarballUrl);
      assert.ok(String(v1['zipballUrl']).includes(`/_blobs/actions/acme/hello/${mirror.sha}.zip?`));

      // The runner sends its token as Basic auth; the signature is what opens the blob.
      const download = await fetch(tarballUrl, { headers: { authorization: `Basic ${Buffer.from(`x-access-token:${a.info.token}`).toString('base64')}` } });
      assert.equal(download.status, 200);
      const tarball = Buffer.from(await download.arrayBuffer());
      const entries = execFileSync('tar', ['-tzf', '-'], { input: tarball }).toString('utf8').split('\n').filter((line) => line !== '');
      const top = new Set(entries.map((entry) => entry.split('/')[0]));
      assert.equal(top.size, 1, `exactly one top-level directory: ${entries.join(', ')}`);
      const [prefix] = [...top];
      assert.equal(execFileSync('tar', ['-xzOf', '-', `${prefix}/action.yml`], { input: tarball }).toString('utf8'), ACTION_YML);
      assert.equal(execFileSync('tar', ['-xzOf', '-', `${prefix}/sub/action.yml`], { input: tarball }).toString('utf8'), ACTION_YML.replace('hello', 'sub'));

      // An altered signature is refused.
      assert.equal((await fetch(tarballUrl.replace(/sig=[^&]+/, 'sig=AAAA'))).status, 401);
    });

    it('refuses a batch holding an undeclared remote, and other jobs\' tokens', async (t) => {
      const mirror = buildMirror(t);
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
      await createRun(h, WORKFLOW);
      const a = await dispatchNext(h);
      const b = await dispatchNext(h);
      const wa = new ScriptedWorker(a.info);
      await wa.connect();
      const wb = new ScriptedWorker(b.info);
      await wb.connect();

      const mixed = await resolveActions(wa, a.info.jobId, [ref('acme/hello', 'v1'), ref('evil/steal', 'v1')]);
      assert.equal(mixed.status, 403, JSON.stringify(mixed.body));
      assert.match(String((mixed.body as JsonObject)['message']), /evil\/steal@v1/);
      assert.doesNotMatch(String((mixed.body as JsonObject)['message']), /acme\/hello/);
      // A declared name at another ref is another remote.
      assert.equal((await resolveActions(wa, a.info.jobId, [ref('acme/hello', 'v2')])).status, 403);

      // b declares no remote; its token cannot borrow a's job (query jobId) nor a's declarations.
      assert.equal((await resolveActions(wb, a.info.jobId, [ref('acme/hello', 'v1')])).status, 403);
      assert.equal((await resolveActions(wb, b.info.jobId, [ref('acme/hello', 'v1')])).status, 403);
      // A token of another run's plan is refused on this plan's route.
      await createRun(h, WORKFLOW);
      const foreign = await dispatchNext(h);
      const stolen = await resolveActions(wa.withToken(foreign.info.token), a.info.jobId, [ref('acme/hello', 'v1')]);
      assert.equal(stolen.status, 403);
      assert.equal((stolen.body as JsonObject)['typeKey'], 'TaskOrchestrationPlanSecurityException');
      // No token: the Bearer challenge.
      assert.equal((await send([], 'POST', wa.url(LOCATION, {}, { jobId: a.info.jobId }), { json: { actions: [ref('acme/hello', 'v1')] } })).status, 401);
    });

    it('names a ref or a repository the mirror lacks', async (t) => {
      const mirror = buildMirror(t);
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
      await createRun(h, WORKFLOW);
      const a = await dispatchNext(h);
      const worker = new ScriptedWorker(a.info);
      await worker.connect();

      const unknown = await resolveActions(worker, a.info.jobId, [ref('acme/hello', 'v9')]);
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.equal((unknown.body as JsonObject)['message'], "action acme/hello@v9: the mirror's acme/hello has no tag, branch or commit 'v9'");

      // No forge configured: the mirror is the only source.
      const absent = await resolveActions(worker, a.info.jobId, [ref('acme/absent', 'v1')]);
      assert.equal(absent.status, 404, JSON.stringify(absent.body));
      assert.equal((absent.body as JsonObject)['message'], 'action acme/absent@v1: the mirror has no acme/absent.git');
    });

    it('answers not_implemented, saying what to configure, with neither a mirror nor a forge', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind, plugins: ['blobs'] });
      await createRun(h, WORKFLOW);
      const a = await dispatchNext(h);
      const worker = new ScriptedWorker(a.info);
      await worker.connect();
      const none = await resolveActions(worker, a.info.jobId, [ref('acme/hello', 'v1')]);
      assert.equal(none.status, 501, JSON.stringify(none.body));
      assert.match(String((none.body as JsonObject)['message']), /^action acme\/hello@v1: no action source is configured \(set SVC_FORGE_API_URL, with SVC_FORGE_TOKEN for private repositories, or SVC_ACTIONS_MIRROR_DIR for a local mirror\)/);
    });

    it('admits remotes nested in a local composite of the run\'s snapshot, and only with a readable manifest', async (t) => {
      const mirror = buildMirror(t);
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
      await snapshotRun(t, h);
      const a = await dispatchNext(h);
      const worker = new ScriptedWorker(a.info);
      await worker.connect();
      const nested = await resolveActions(worker, a.info.jobId, [ref('acme/hello', 'main')]);
      assert.equal(nested.status, 200, JSON.stringify(nested.body));
      assert.equal(((nested.body as JsonObject)['actions'] as Record<string, JsonObject>)['acme/hello@main']?.['resolvedSha'], mirror.sha);
      assert.equal((await resolveActions(worker, a.info.jobId, [ref('acme/hello', 'v1')])).status, 403, 'the composite names main, not v1');

      // The same workflow at a commit that is no snapshot: the manifest is unreadable, its remotes denied.
      await createRun(h, LOCAL_COMPOSITE);
      const b = await dispatchNext(h);
      const wb = new ScriptedWorker(b.info);
      await wb.connect();
      assert.equal((await resolveActions(wb, b.info.jobId, [ref('acme/hello', 'main')])).status, 403);
    });
  });
}
