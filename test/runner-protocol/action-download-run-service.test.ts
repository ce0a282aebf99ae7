/**
 * Action resolution on the run-service wire (§5.5): a Worker on a `RunnerJobRequest` job posts to
 * `<origin of system.github.launch_endpoint>/actions/build/{planId}/jobs/{jobId}/runnerresolve/actions`
 * with its job token, snake_case both ways; actions nobody has answer `422 {"errors": {key: {message}}}`
 * (shown to the user, not retried); other failures carry their message as the reason phrase, the
 * only part the runner prints. Same batch as the legacy wire: forge, mirror first, cache,
 * admission — checked here in this wire's shape, against the forge simulator.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { RunnerJobRequestBody } from '../../core/protocol/index.js';
import { buildMirror, downloadTarball, FORGE_TOKEN, FORGE_WORKFLOW, forgeWithActions, tarFile, TOOL_YML } from './action-download-fixture.js';
import { delay } from './listener-fixture.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';
import { ScriptedRunner } from './scripted-runner.js';
import { createRun, dispatchNext } from './worker-job.js';

interface ActionRef {
  readonly action: string;
  readonly version: string;
  readonly path?: string;
}

interface LaunchJob {
  readonly launch: string;
  readonly planId: string;
  readonly jobId: string;
  readonly token: string;
}

interface LaunchAnswer {
  readonly status: number;
  readonly reason: string;
  readonly body: Record<string, unknown>;
}

/** The runner's launch client: an absolute path resolved against the launch endpoint, Bearer job token, snake_case JSON. */
async function resolveActions(job: LaunchJob, actions: readonly ActionRef[], ids: { readonly planId?: string; readonly jobId?: string; readonly token?: string | null } = {}): Promise<LaunchAnswer> {
  const url = new URL(`/actions/build/${ids.planId ?? job.planId}/jobs/${ids.jobId ?? job.jobId}/runnerresolve/actions`, job.launch);
  const token = ids.token === undefined ? job.token : ids.token;
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json; charset=utf-8', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ actions: actions.map((entry) => ({ path: '', ...entry })) }),
  });
  const text = await response.text();
  return { status: response.status, reason: response.statusText, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** Jobs of a FORGE_WORKFLOW run dispatched directly (legacy messages: the route only needs their job tokens). */
async function launchJobs(t: TestContext, kind: StoreKind, env: Record<string, string>): Promise<{ readonly h: RunnerHost; readonly jobs: Readonly<Record<string, LaunchJob>> }> {
  const h = await runnerHost(t, { kind, env, plugins: ['blobs'] });
  await createRun(h, FORGE_WORKFLOW);
  const jobs: Record<string, LaunchJob> = {};
  for (let n = 0; n < 3; n += 1) {
    const dispatched = await dispatchNext(h);
    jobs[dispatched.assignment.job.instanceId] = { launch: h.baseUrl, planId: dispatched.info.planId, jobId: dispatched.info.jobId, token: dispatched.info.token };
  }
  return { h, jobs };
}

const jobOf = (jobs: Readonly<Record<string, LaunchJob>>, key: string): LaunchJob => {
  const job = jobs[key];
  assert.ok(job, `job ${key}`);
  return job;
};
const actionsOf = (answer: LaunchAnswer) => answer.body['actions'] as Record<string, Record<string, unknown>>;

for (const backend of RUNNER_BACKENDS) {
  describe(`action resolution on the run-service wire (${backend.kind})`, { skip: backend.skip }, () => {
    it('serves a broker job at its launch endpoint: snake_case tickets from the forge, a tarball with one top-level directory', async (t) => {
      const { forge, toolSha, env } = await forgeWithActions(t, { apiPrefix: '/api/v3' });
      assert.ok(env['SVC_FORGE_API_URL']?.endsWith('/api/v3'), 'a GitHub Enterprise Server-style base');
      const h = await runnerHost(t, { kind: backend.kind, env: { ...env, SVC_RUNNER_FLOW: 'broker' }, plugin: { timings: { pollHoldMs: 1500 } }, plugins: ['blobs'] });
      const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name: 'broker-01', clock: h.clock });
      const config = await runner.configure({ labels: ['linux'] });
      const broker = new ScriptedBroker(runner, config, config.settings.serverUrlV2 ?? '');
      assert.equal((await broker.createSession()).status, 200);
      const polling = broker.nextMessage();
      await delay(200);
      await createRun(h, FORGE_WORKFLOW);
      const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;
      assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 200);
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      const message = acquired.body as {
        plan: { planId: string };
        jobId: string;
        variables: Record<string, { value: string }>;
        resources: { endpoints: { name: string; authorization: { parameters: { AccessToken: string } } }[] };
      };
      const launch = message.variables['system.github.launch_endpoint']?.value ?? '';
      assert.equal(launch, h.baseUrl, 'the launch endpoint is this server, where the route is served');
      const token = message.resources.endpoints.find((endpoint) => endpoint.name === 'SystemVssConnection')?.authorization.parameters.AccessToken ?? '';
      const job: LaunchJob = { launch, planId: message.plan.planId, jobId: message.jobId, token };

      const answer = await resolveActions(job, [{ action: 'acme/tool', version: 'v1' }]);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const tool = actionsOf(answer)['acme/tool@v1'] ?? {};
      assert.deepEqual(Object.keys(tool).sort(), ['name', 'resolved_name', 'resolved_sha', 'tar_url', 'version', 'zip_url']);
      assert.equal(tool['name'], 'acme/tool');
      assert.equal(tool['resolved_name'], 'acme/tool');
      assert.equal(tool['resolved_sha'], toolSha);
      assert.equal(tool['version'], 'v1');
      assert.ok(String(tool['tar_url']).startsWith(`${h.baseUrl}/_blobs/actions/acme/tool/${toolSha}.tar.gz?`));
      assert.ok(!JSON.stringify(answer.body).includes(FORGE_TOKEN) && !JSON.stringify(answer.body).includes(forge.apiUrl));
      const { top, archive } = await downloadTarball(String(tool['tar_url']), token);
      assert.equal(tarFile(archive, `${top}/action.yml`), TOOL_YML);
    });

    it('answers 422 with a message per action nobody has, and reuses stored archives for later jobs', async (t) => {
      const mirror = buildMirror(t);
      const { forge, toolSha, env } = await forgeWithActions(t);
      const { jobs } = await launchJobs(t, backend.kind, { ...env, SVC_ACTIONS_MIRROR_DIR: mirror.dir });
      const a = jobOf(jobs, 'a');

      const mixed = await resolveActions(a, [
        { action: 'acme/hello', version: 'v1' },
        { action: 'acme/tool', version: 'v9' },
        { action: 'acme/tool', version: 'v1' },
        { action: 'acme/gone', version: 'v1' },
      ]);
      assert.equal(mixed.status, 422, JSON.stringify(mixed.body));
      const errors = mixed.body['errors'] as Record<string, { message: string }>;
      assert.deepEqual(Object.keys(errors), ['acme/tool@v9', 'acme/gone@v1'], 'only the actions nobody has');
      assert.match(errors['acme/tool@v9']?.message ?? '', /^action acme\/tool@v9: the mirror has no acme\/tool\.git; the forge at http:\/\/127\.0\.0\.1:\d+ has no repository acme\/tool with a tag, branch or commit 'v9'/);
      assert.match(errors['acme/gone@v1']?.message ?? '', /the forge at .* has no repository acme\/gone/);

      const good = await resolveActions(a, [{ action: 'acme/hello', version: 'v1' }, { action: 'acme/tool', version: 'v1' }]);
      assert.equal(good.status, 200, JSON.stringify(good.body));
      assert.equal(actionsOf(good)['acme/hello@v1']?.['resolved_sha'], mirror.sha, 'the mirror first');
      assert.equal(actionsOf(good)['acme/tool@v1']?.['resolved_sha'], toolSha);
      const before = forge.requests.length;
      const other = await resolveActions(jobOf(jobs, 'c'), [{ action: 'acme/tool', version: 'v1' }]);
      assert.equal(other.status, 200);
      assert.equal(forge.requests.length, before, 'another job on the same commit does not reach the forge');
    });

    it('answers 403, 502, 503 and 501 with the message as the reason phrase, and guards plan and job', async (t) => {
      const { forge, env } = await forgeWithActions(t);
      // Each failure's own message; with the breaker on, failures in a row would open it (forge-source-breaker.test.ts).
      const { jobs } = await launchJobs(t, backend.kind, { ...env, SVC_FORGE_BREAKER: 'off' });
      const a = jobOf(jobs, 'a');
      const b = jobOf(jobs, 'b');

      // Nothing resolved yet (the ref cache would answer otherwise).
      forge.failFromNow('repos/get-commit', { status: 500, json: { message: 'Server Error' } });
      const failing = await resolveActions(b, [{ action: 'acme/tool', version: 'v1' }]);
      assert.equal(failing.status, 502, JSON.stringify(failing.body));
      assert.match(failing.reason, /^the forge at http:\/\/127\.0\.0\.1:\d+ failed \(GET \/repos\/acme\/tool\/commits\/v1: 500: Server Error\)$/);
      forge.recover();

      await forge.stop();
      const down = await resolveActions(b, [{ action: 'acme/tool', version: 'v1' }]);
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.match(down.reason, /^the forge at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
      assert.equal(down.body['code'], 'forge_unavailable');

      // The forge is down: admission cannot read tool's manifest, but the guards come first anyway.
      const undeclared = await resolveActions(a, [{ action: 'acme/tool', version: 'v1' }, { action: 'evil/steal', version: 'v1' }]);
      assert.equal(undeclared.status, 403);
      assert.match(undeclared.reason, /does not declare evil\/steal@v1/);
      assert.equal(undeclared.body['code'], 'action_not_declared');

      assert.equal((await resolveActions(a, [{ action: 'acme/tool', version: 'v1' }], { jobId: b.jobId })).status, 403, "another job's id");
      assert.equal((await resolveActions(a, [{ action: 'acme/tool', version: 'v1' }], { planId: '00000000-0000-0000-0000-000000000001' })).status, 403, 'another plan');
      assert.equal((await resolveActions(a, [{ action: 'acme/tool', version: 'v1' }], { token: null })).status, 401);
      assert.equal((await resolveActions(a, [{ action: 'not a name', version: 'v1' }])).status, 400);

      const bare = await launchJobs(t, backend.kind, {});
      const none = await resolveActions(jobOf(bare.jobs, 'b'), [{ action: 'acme/tool', version: 'v1' }]);
      assert.equal(none.status, 501);
      assert.match(none.reason, /no action source is configured \(set SVC_FORGE_API_URL/);
    });
  });
}
