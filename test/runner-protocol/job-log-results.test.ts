/**
 * The job-level log in run-service mode (§4.6): the official runner uploads each step's log
 * (`GetStepLogsSignedBlobURL` + PUTs + `CreateStepLogsMetadata`) and then the job's log, which
 * repeats every step line with its own timestamps plus the job context's own lines
 * (`GetJobLogsSignedBlobURL` + an append blob + `CreateJobLogsMetadata`). `/logs` must show every
 * line once, the job-only lines too, and `raw=1` the job log as uploaded.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { RunnerJobRequestBody } from '../../core/protocol/index.js';
import { delay, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS, runnerHost, type RunnerHost } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';
import { ScriptedRunner } from './scripted-runner.js';
import { send, type HttpResult } from './vss-client.js';

const RECEIVER = 'twirp/results.services.receiver.Receiver/';
const STEPS_UPDATE = 'twirp/github.actions.results.api.v1.WorkflowStepUpdateService/WorkflowStepsUpdate';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const T0 = Date.UTC(2030, 0, 1, 0, 0, 1);
/** .NET `DateTime.ToString("O")`; the job logger stamps a line `lag` ms after the step logger. */
const at = (seconds: number, lag = 0) => `${new Date(T0 + seconds * 1000 + lag).toISOString().slice(0, -1)}0000Z`;
const stamp = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

type Line = readonly [number, string];
/** A block file as Logging.cs writes it: a BOM, one `<timestamp> <text>` per line. */
const block = (lines: readonly Line[], lag = 0) => Buffer.concat([BOM, Buffer.from(lines.map(([seconds, text]) => `${at(seconds, lag)} ${text}\n`).join(''), 'utf8')]);

const SETUP: readonly Line[] = [[0, 'Current runner version: 2.337.0'], [1, 'Complete job name: build']];
const ECHO: readonly Line[] = [[1, '##[group]Run echo hello'], [1, 'echo hello'], [2, '##[endgroup]'], [2, 'hello']];
const COMPLETE: readonly Line[] = [[3, 'Cleaning up orphan processes']];

function ok(result: HttpResult, status = 200): HttpResult {
  assert.equal(result.status, status, JSON.stringify(result.body));
  return result;
}

async function put(url: string, body: Buffer): Promise<void> {
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body });
  assert.equal(response.status, 201, await response.text());
}

async function get(h: RunnerHost, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${h.systemToken}` } });
  return { status: response.status, text: await response.text() };
}

for (const backend of RUNNER_BACKENDS) {
  describe(`the job-level log, run-service flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('repeated step lines are shown once, job-only lines are kept, the raw log is the job log', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind, env: { SVC_RUNNER_FLOW: 'broker' }, plugin: { timings: { pollHoldMs: 1500 } } });
      const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name: 'broker-01', clock: h.clock });
      const config = await runner.configure({ labels: ['linux'] });
      assert.ok(config.settings.serverUrlV2);
      const broker = new ScriptedBroker(runner, config, config.settings.serverUrlV2);
      assert.equal((await broker.createSession()).status, 200);
      const polling = broker.nextMessage();
      await delay(200);
      const { run } = await queueRun(h, ['linux']);
      const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      const message = acquired.body as { jobId: string; plan: { planId: string }; steps: { id: string }[]; resources: { endpoints: { name: string; url: string; authorization: { parameters: { AccessToken: string } } }[] } };
      const system = message.resources.endpoints.find((endpoint) => endpoint.name === 'SystemVssConnection');
      const echo = message.steps[0]?.id;
      assert.ok(system && echo);
      const token = system.authorization.parameters.AccessToken;
      const ids = { workflow_run_backend_id: message.plan.planId, workflow_job_run_backend_id: message.jobId };
      assert.equal((await broker.renew(system.url, token, { planId: message.plan.planId, jobId: message.jobId })).status, 200);
      const calls: string[] = [];
      const twirp = (method: string, body: unknown) => send(calls, 'POST', new URL(method.includes('/') ? method : `${RECEIVER}${method}`, `${h.baseUrl}/`).href, { headers: { authorization: `Bearer ${token}` }, json: body });

      const setup = randomUUID();
      const complete = randomUUID();
      const step = (id: string, number: number, name: string) => ({ external_id: id, number, name, status: 6, conclusion: 2, started_at: stamp(number - 1), completed_at: stamp(number) });
      ok(await twirp(STEPS_UPDATE, { ...ids, change_order: 1, steps: [step(setup, 1, 'Set up job'), step(echo, 2, 'Run echo hello'), step(complete, 3, 'Complete job')] }));
      for (const [id, lines] of [[setup, SETUP], [echo, ECHO], [complete, COMPLETE]] as const) {
        const url = (ok(await twirp('GetStepLogsSignedBlobURL', { ...ids, step_backend_id: id })).body as { logs_url: string }).logs_url;
        await put(url, block(lines));
        ok(await twirp('CreateStepLogsMetadata', { ...ids, step_backend_id: id, uploaded_at: stamp(3), line_count: lines.length }));
      }

      // The job log: an append blob of two blocks, a URL asked for before each.
      const warning = '##[warning]This self-hosted runner is currently using runner version 2.300.0. This version is out of date.';
      const blocks = [block([[0, 'Starting: build'], ...SETUP, ...ECHO.slice(0, 2)], 3), block([...ECHO.slice(2), ...COMPLETE, [3, warning], [4, 'Finishing: build']], 3)];
      for (const [index, bytes] of blocks.entries()) {
        const url = (ok(await twirp('GetJobLogsSignedBlobURL', ids)).body as { logs_url: string }).logs_url;
        if (index === 0) await put(url, Buffer.alloc(0));
        await put(`${url}&comp=appendblock${index === blocks.length - 1 ? '&seal=true' : ''}`, bytes);
      }
      const metadata = { ...ids, uploaded_at: stamp(4), line_count: 11 };
      ok(await twirp('CreateJobLogsMetadata', metadata));
      ok(await twirp('CreateJobLogsMetadata', metadata), 200);
      ok(await broker.call('POST', new URL('completejob', system.url).href, { token, json: { planId: message.plan.planId, jobId: message.jobId, conclusion: 'succeeded', outputs: {} } }));

      const logs = await get(h, `/runs/${run.id}/logs?job=build`);
      assert.equal(logs.status, 200, logs.text);
      const lines = logs.text.split('\n').filter((line) => line !== '');
      assert.deepEqual(
        lines,
        [...SETUP, ...ECHO, ...COMPLETE].map(([seconds, text]) => `${at(seconds)} ${text}`).concat([`${at(0, 3)} Starting: build`, `${at(3, 3)} ${warning}`, `${at(4, 3)} Finishing: build`]),
        lines.join('\n'),
      );
      const raw = await get(h, `/runs/${run.id}/logs?job=build&raw=1`);
      assert.equal(raw.status, 200, raw.text);
      assert.equal(raw.text, Buffer.concat(blocks.map((bytes) => bytes.subarray(3))).toString('utf8'), 'the raw log: the job log as uploaded, without BOMs');
      assert.equal((await get(h, `/runs/${run.id}/logs?job=nope&raw=1`)).status, 404);
    });
  });
}
