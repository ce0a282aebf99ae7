import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { Assignment } from '../../core/engine/index.js';
import { engineHost, type EngineHost, type EngineHostOptions } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { spawnCli } from '../support/spawn-cli.js';
import { testRunner } from '../support/test-runner.js';

/** A started host with one finished run (build succeeded with logs in two steps; lint failed). */
async function hostWithRun(t: TestContext, options: EngineHostOptions = {}) {
  const fixture = await engineHost(t, options);
  const base = await fixture.host.start();
  const { engine, reporting } = fixture;
  const run = await engine.createRun(runInput([job('build'), job('lint')]));
  const runner = testRunner(engine);
  for (let a: Assignment | undefined = await runner.take(); a; a = await runner.take()) {
    const id = runner.identity.runnerId;
    await reporting.appendLog(a.job.id, id, { stepNumber: 1, lines: [`${a.job.name}: checkout`] });
    await reporting.appendLog(a.job.id, id, { stepNumber: 2, lines: [`${a.job.name}: run`, `${a.job.name}: done`] });
    await engine.completeJob(a.job.id, id, a.job.name === 'lint' ? { outcome: 'failure', reason: 'Process completed with exit code 2.' } : { outcome: 'success' });
  }
  return { ...fixture, base, run, cliEnv: cliEnvironment(fixture, base) };
}

/**
 * The CLI's environment: the host's (same data dir and credential store), pointed at the started
 * server, with a plugins file it can load (the host's also names the test-only grabber plugin).
 */
function cliEnvironment(fixture: EngineHost, base: string): Record<string, string> {
  const plugins = join(fixture.hostEnv.dir, 'cli-plugins.toml');
  writeFileSync(plugins, '[[plugin]]\nid = "engine"\n');
  return { ...fixture.hostEnv.env, SVC_PLUGINS: plugins, SVC_URL: base };
}

/** A port nothing listens on (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function svc(args: string[], env: Record<string, string>) {
  const cli = spawnCli('svc', args, env);
  const { code } = await cli.exited;
  return { code, output: cli.output() };
}

describe('svc status and svc logs against a running server', () => {
  it('svc status prints the run and a job table; --json prints the API response', async (t) => {
    const { run, cliEnv, host, auth } = await hostWithRun(t);
    const human = await svc(['status', String(run.id)], cliEnv);
    assert.equal(human.code, 0, human.output);
    const lines = human.output.split('\n');
    assert.equal(lines[0], `Run ${run.id}: CI #1: failure`);
    assert.match(lines[1] ?? '', /acme\/web push refs\/heads\/main aaaaaaa by octocat/);
    assert.match(lines[3] ?? '', /^JOB\s+ID\s+STATUS\s+CONCLUSION\s+RUNNER\s+DURATION\s+REASON$/);
    assert.match(lines[4] ?? '', /^build\s+\d+\s+success\s+success\s+runner-1\s+0s$/);
    assert.match(lines[5] ?? '', /^lint\s+\d+\s+failure\s+failure\s+runner-1\s+0s\s+Process completed with exit code 2\.$/);

    const json = await svc(['status', String(run.id), '--json'], cliEnv);
    assert.equal(json.code, 0, json.output);
    const api = await host.app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}`, headers: auth });
    assert.deepEqual(JSON.parse(json.output), api.json());
  });

  it('svc logs prints the lines, by job and by step', async (t) => {
    const { run, cliEnv } = await hostWithRun(t);
    const all = await svc(['logs', String(run.id)], cliEnv);
    assert.equal(all.code, 0, all.output);
    assert.equal(all.output, 'build\tbuild: checkout\nbuild\tbuild: run\nbuild\tbuild: done\nlint\tlint: checkout\nlint\tlint: run\nlint\tlint: done\n');
    const lint = await svc(['logs', String(run.id), '--job', 'lint', '--step', '2'], cliEnv);
    assert.equal(lint.output, 'lint: run\nlint: done\n');
    const unknown = await svc(['logs', String(run.id), '--job', 'deploy'], cliEnv);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.output, `svc logs: run ${run.id} has no job 'deploy' (its jobs: build, lint) (HTTP 404)\n`);
    const badStep = await svc(['logs', String(run.id), '--step', 'two'], cliEnv);
    assert.equal(badStep.code, 1);
    assert.equal(badStep.output, "svc logs: --step 'two' is not a step number (0 or more)\n");
  });

  it('an unknown run, a bad id and an unreachable server are one line each and exit 1', async (t) => {
    const { cliEnv } = await hostWithRun(t);
    const missing = await svc(['status', '424242'], cliEnv);
    assert.deepEqual(missing, { code: 1, output: 'svc status: run 424242 does not exist (HTTP 404)\n' });
    const bad = await svc(['status', 'latest'], cliEnv);
    assert.deepEqual(bad, { code: 1, output: "svc status: 'latest' is not a run id; a run id is a positive whole number (e.g. svc status 42)\n" });
    const port = await freePort();
    const down = await svc(['status', '1'], { ...cliEnv, SVC_URL: `http://127.0.0.1:${port}` });
    assert.deepEqual(down, { code: 1, output: `svc status: cannot reach the server at http://127.0.0.1:${port} (ECONNREFUSED); is \`svc serve\` running there? SVC_URL sets the address\n` });
    const wrongToken = await svc(['status', '1'], { ...cliEnv, SVC_TOKEN: 'not-the-token-at-all' });
    assert.equal(wrongToken.code, 1);
    assert.match(wrongToken.output, /^svc status: .*check SVC_TOKEN \(or SVC_SYSTEM_TOKEN\) \(HTTP 401\)\n$/);
  });

  it('without a token variable the CLI uses the system token the server keeps in its credential store', async (t) => {
    const { run, cliEnv } = await hostWithRun(t, { env: { SVC_CREDENTIAL_STORE: 'file' }, unset: ['SVC_SYSTEM_TOKEN'] });
    assert.equal(cliEnv['SVC_SYSTEM_TOKEN'], undefined);
    const status = await svc(['status', String(run.id), '--json'], cliEnv);
    assert.equal(status.code, 0, status.output);
    assert.equal(JSON.parse(status.output).id, run.id);
  });
});

describe('svc rerun against a running server', () => {
  it('--failed re-runs the failed job in place; a bad --job value is refused before any request', async (t) => {
    const { run, cliEnv, engine } = await hostWithRun(t);
    const rerun = await svc(['rerun', String(run.id), '--failed'], cliEnv);
    assert.equal(rerun.code, 0, rerun.output);
    assert.equal(rerun.output, `run ${run.id} attempt 2: 1 job to run again (queued)\n`);
    const jobs = await engine.listJobs(run.id);
    assert.deepEqual(jobs.map((j) => [j.name, j.status, j.attempt]), [['build', 'success', 1], ['lint', 'queued', 2]]);
    const bad = await svc(['rerun', String(run.id), '--job', 'lint'], cliEnv);
    assert.equal(bad.code, 1);
    assert.match(bad.output, /--job takes a job id/);
    const busy = await svc(['rerun', String(run.id)], cliEnv);
    assert.equal(busy.code, 1);
    assert.match(busy.output, /only a finished run can be re-run .*\(HTTP 409\)/);
  });
});
