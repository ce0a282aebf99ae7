/**
 * Action download info (§5.5, legacy wire) from the forge, against the forge simulator (every
 * forge request and answer checked against GitHub's OpenAPI description): a declared
 * `acme/tool@v1` is resolved to its commit through the forge's REST API with svc's token, its
 * archives are downloaded server-side once per commit and handed to the runner as signed URLs of
 * ours (no forge URL, no token); the mirror goes first; a ref or repository nobody has is a 404
 * naming it; the forge down or failing is a 503/502 naming the forge; an undeclared remote still
 * fails the whole batch.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { JsonObject } from '../../core/protocol/index.js';
import { REF_CACHE_MS } from '../../backends/remote-repositories/index.js';
import { buildMirror, downloadTarball, FORGE_TOKEN, FORGE_WORKFLOW, forgeWithActions, tarFile, TOOL_YML } from './action-download-fixture.js';
import type { ForgeSimulator } from '../support/forge-simulator/index.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedWorker } from './scripted-worker.js';
import { send, type HttpResult } from './vss-client.js';
import { createRun, dispatchNext, type DispatchedJob } from './worker-job.js';

const LOCATION = '27d7f831-88c1-4719-8ca1-6a061dad90eb';
const ref = (nameWithOwner: string, at: string, path = ''): JsonObject => ({ nameWithOwner, ref: at, path });

interface Job {
  readonly job: DispatchedJob;
  resolve(actions: readonly JsonObject[]): Promise<HttpResult>;
}

async function job(h: RunnerHost): Promise<Job> {
  const dispatched = await dispatchNext(h);
  const worker = new ScriptedWorker(dispatched.info);
  await worker.connect();
  return {
    job: dispatched,
    resolve: (actions) => send([], 'POST', worker.url(LOCATION, {}, { jobId: dispatched.info.jobId }), { headers: worker.auth, json: { actions } }),
  };
}

/** A host with a run of FORGE_WORKFLOW whose three jobs are dispatched, by job key. */
async function host(t: TestContext, kind: StoreKind, env: Record<string, string>): Promise<{ readonly h: RunnerHost; readonly jobs: Readonly<Record<'a' | 'b' | 'c', Job>> }> {
  const h = await runnerHost(t, { kind, env, plugins: ['blobs'] });
  await createRun(h, FORGE_WORKFLOW);
  const dispatched = [await job(h), await job(h), await job(h)];
  const byKey = (key: string): Job => {
    const found = dispatched.find((entry) => entry.job.assignment.job.instanceId === key);
    assert.ok(found, `job ${key} was dispatched`);
    return found;
  };
  return { h, jobs: { a: byKey('a'), b: byKey('b'), c: byKey('c') } };
}

const answers = (result: HttpResult): Record<string, JsonObject> => (result.body as JsonObject)['actions'] as Record<string, JsonObject>;
const message = (result: HttpResult): string => String((result.body as JsonObject)['message']);
const forgeCalls = (forge: ForgeSimulator) => forge.requests.map((record) => record.operationId);
const callsFor = (forge: ForgeSimulator, operationId: string, repository: string) => forge.requests.filter((record) => record.operationId === operationId && record.path.includes(`/${repository}/`)).length;

for (const backend of RUNNER_BACKENDS) {
  describe(`action download info from the forge (${backend.kind})`, { skip: backend.skip }, () => {
    it('resolves a declared action through the forge and serves its archives through signed URLs of ours', async (t) => {
      const { forge, toolSha, nestedSha, env } = await forgeWithActions(t);
      const { h, jobs } = await host(t, backend.kind, env);
      const b = jobs.b;

      const result = await b.resolve([ref('acme/tool', 'v1')]);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      const tool = answers(result)['acme/tool@v1'] as JsonObject;
      assert.equal(tool['resolvedSha'], toolSha);
      assert.equal(tool['resolvedNameWithOwner'], 'acme/tool');
      assert.equal(tool['authentication'], undefined);
      assert.ok(String(tool['tarballUrl']).startsWith(`${h.baseUrl}/_blobs/actions/acme/tool/${toolSha}.tar.gz?`), String(tool['tarballUrl']));
      assert.ok(String(tool['zipballUrl']).startsWith(`${h.baseUrl}/_blobs/actions/acme/tool/${toolSha}.zip?`));
      const wire = JSON.stringify(result.body);
      assert.ok(!wire.includes(FORGE_TOKEN) && !wire.includes(forge.apiUrl) && !wire.includes(forge.webUrl), 'neither the forge nor its token reaches the job');

      // Admission read tool's manifest (its tarball) and the nested composite's; the ticket added tool's zip.
      // The forge saw svc's token on its API only; the archives came from its web host without it.
      assert.deepEqual(forgeCalls(forge).sort(), [
        'codeload',
        'codeload',
        'codeload',
        'repos/download-tarball-archive',
        'repos/download-tarball-archive',
        'repos/download-zipball-archive',
        'repos/get-commit',
        'repos/get-commit',
      ]);
      for (const record of forge.requests) assert.equal(record.authorization, record.operationId === 'codeload' ? undefined : `Bearer ${FORGE_TOKEN}`, record.path);

      const { top, archive } = await downloadTarball(String(tool['tarballUrl']), b.job.info.token);
      assert.equal(top, `acme-tool-${toolSha.slice(0, 7)}`);
      assert.equal(tarFile(archive, `${top}/action.yml`), TOOL_YML);
      const zip = Buffer.from(await (await fetch(String(tool['zipballUrl']))).arrayBuffer());
      assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');

      // The composite's manifest was read from the stored tarball: its nested remote is admitted, others are not.
      const nested = await b.resolve([ref('acme/nested', 'v2')]);
      assert.equal(nested.status, 200, JSON.stringify(nested.body));
      assert.equal(answers(nested)['acme/nested@v2']?.['resolvedSha'], nestedSha);
      assert.equal((await b.resolve([ref('acme/nested', 'v3')])).status, 403);
    });

    it('downloads a commit once: later jobs reuse the stored archives, and a moved tag is seen after the ref cache', async (t) => {
      const { forge, toolSha, env } = await forgeWithActions(t);
      const { h, jobs } = await host(t, backend.kind, env);
      assert.equal((await jobs.b.resolve([ref('acme/tool', 'v1')])).status, 200);
      const afterFirst = forge.requests.length;

      const second = await jobs.c.resolve([ref('acme/tool', 'v1')]);
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(answers(second)['acme/tool@v1']?.['resolvedSha'], toolSha);
      assert.equal(forge.requests.length, afterFirst, 'the ref was resolved moments ago: no forge request at all');

      h.clock.advance(REF_CACHE_MS + 1);
      const later = await jobs.c.resolve([ref('acme/tool', 'v1')]);
      assert.equal(later.status, 200);
      // tool and the composite it nests are looked up again; neither archive is downloaded again.
      assert.deepEqual(forgeCalls(forge).slice(afterFirst), ['repos/get-commit', 'repos/get-commit']);

      const moved = await forge.repositories.commit('acme/tool', { files: { 'README.md': 'v1.1\n' }, tags: ['v1'] });
      h.clock.advance(REF_CACHE_MS + 1);
      const next = await jobs.c.resolve([ref('acme/tool', 'v1')]);
      assert.equal(answers(next)['acme/tool@v1']?.['resolvedSha'], moved, 'the moved tag is seen once the ref cache has lapsed');
      assert.equal(callsFor(forge, 'repos/download-tarball-archive', 'acme/tool'), 2, 'a new commit is a new download');
      assert.equal(callsFor(forge, 'repos/download-tarball-archive', 'acme/nested'), 1);
    });

    it('takes an action from the mirror first and from the forge when the mirror lacks it', async (t) => {
      const mirror = buildMirror(t);
      const { forge, toolSha, env } = await forgeWithActions(t);
      const forgeHello = await forge.repositories.create('acme/hello', { files: { 'action.yml': 'name: forge hello\n' }, tags: ['v1', 'v2'] });
      const a = (await host(t, backend.kind, { ...env, SVC_ACTIONS_MIRROR_DIR: mirror.dir })).jobs.a;

      const result = await a.resolve([ref('acme/hello', 'v1'), ref('acme/tool', 'v1'), ref('acme/hello', 'v2')]);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.deepEqual(Object.keys(answers(result)), ['acme/hello@v1', 'acme/tool@v1', 'acme/hello@v2'], 'answered in the order asked');
      assert.equal(answers(result)['acme/hello@v1']?.['resolvedSha'], mirror.sha, 'the mirror goes first');
      assert.equal(answers(result)['acme/tool@v1']?.['resolvedSha'], toolSha, 'a repository the mirror lacks comes from the forge');
      assert.equal(answers(result)['acme/hello@v2']?.['resolvedSha'], forgeHello, "a ref the mirror's repository lacks comes from the forge");
      const helloCalls = forge.requests.filter((record) => record.path.includes('/acme/hello/')).map((record) => record.path);
      assert.ok(helloCalls.every((path) => !path.endsWith('/commits/v1')), `the forge was not asked for acme/hello@v1: ${helloCalls.join(', ')}`);
    });

    it('names a ref or a repository nobody has, per action', async (t) => {
      const { forge, env } = await forgeWithActions(t);
      const a = (await host(t, backend.kind, env)).jobs.a;
      const where = forge.apiUrl.replace(/[.]/g, '\\.');

      const unknownRef = await a.resolve([ref('acme/tool', 'v9')]);
      assert.equal(unknownRef.status, 404, JSON.stringify(unknownRef.body));
      assert.match(message(unknownRef), new RegExp(`^action acme/tool@v9: the forge at ${where} has no repository acme/tool with a tag, branch or commit 'v9'`));
      const both = await a.resolve([ref('acme/tool', 'v1'), ref('acme/tool', 'v9'), ref('acme/gone', 'v1')]);
      assert.equal(both.status, 404);
      assert.match(message(both), /action acme\/tool@v9: .*; action acme\/gone@v1: the forge at .* has no repository acme\/gone/);
      assert.doesNotMatch(message(both), /acme\/tool@v1/);
    });

    it('answers 503 when the forge is down and 502 when it fails, naming it', async (t) => {
      const { forge, env } = await forgeWithActions(t);
      // Each failure's own message; with the breaker on, the third failure in a row would open it (forge-breaker.test.ts).
      const b = (await host(t, backend.kind, { ...env, SVC_FORGE_BREAKER: 'off' })).jobs.b;
      const where = forge.apiUrl.replace(/[.]/g, '\\.');

      forge.failFromNow('repos/get-commit', { status: 500, json: { message: 'Server Error', documentation_url: 'https://docs.github.com/rest' } });
      const failing = await b.resolve([ref('acme/tool', 'v1')]);
      assert.equal(failing.status, 502, JSON.stringify(failing.body));
      assert.match(message(failing), new RegExp(`^the forge at ${where} failed \\(GET /repos/acme/tool/commits/v1: 500: Server Error\\)`));

      forge.recover();
      forge.failFromNow('repos/get-commit', { status: 503, json: { message: 'Service unavailable' } });
      const unavailable = await b.resolve([ref('acme/tool', 'v1')]);
      assert.equal(unavailable.status, 503, JSON.stringify(unavailable.body));
      assert.match(message(unavailable), new RegExp(`^the forge at ${where} is unavailable`));

      forge.recover();
      await forge.stop();
      const down = await b.resolve([ref('acme/tool', 'v1')]);
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.match(message(down), new RegExp(`^the forge at ${where} is unreachable \\(GET /repos/acme/tool/commits/v1: .*ECONNREFUSED`));
    });

    it('answers 502 naming SVC_FORGE_TOKEN when the forge refuses it', async (t) => {
      const { forge } = await forgeWithActions(t);
      const b = (await host(t, backend.kind, { SVC_FORGE_API_URL: forge.apiUrl, SVC_FORGE_TOKEN: 'ghp_revoked' })).jobs.b;
      const refused = await b.resolve([ref('acme/tool', 'v1')]);
      assert.equal(refused.status, 502, JSON.stringify(refused.body));
      assert.match(message(refused), /refused svc's credential .*401: Bad credentials.*check SVC_FORGE_TOKEN/);
    });

    it('still refuses a whole batch holding an undeclared remote, without asking the forge for it', async (t) => {
      const { forge, env } = await forgeWithActions(t);
      await forge.repositories.create('evil/steal', { files: { 'action.yml': 'name: x\n' }, tags: ['v1'] });
      const a = (await host(t, backend.kind, env)).jobs.a;
      const mixed = await a.resolve([ref('acme/tool', 'v1'), ref('evil/steal', 'v1')]);
      assert.equal(mixed.status, 403, JSON.stringify(mixed.body));
      assert.match(message(mixed), /does not declare evil\/steal@v1/);
      assert.ok(forge.requests.every((record) => !record.path.includes('/evil/')), 'the forge was not asked for the undeclared remote');
    });
  });
}
