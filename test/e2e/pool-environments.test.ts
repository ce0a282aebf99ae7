/**
 * Environments as a user meets them: `svc serve` with the built-in pool (process backend) and an
 * operator file with `[environment_rules]`, `svc run` in a repository whose origin names it, and
 * `svc approve` from another shell.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gitRepository, spawnTs, startServerWithPool, svcRun, useBundle, type PoolServer, type Spawned } from '../local-runs/run-cli-harness.js';
import { git, isolateGitConfig } from '../snapshots/support.js';

isolateGitConfig();
after(useBundle('e2e-env'));

const RULES = `[environment_rules."acme/web".production]
required_reviewers = 1

[environment_rules."acme/web".staging]
deployment_branches = ["release/*"]
`;

const workflow = (environment: string) => `name: Deploy
on: push
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: echo built
  deploy:
    needs: build
    runs-on: self-hosted
    environment: ${environment}
    steps:
      - run: echo deployed to ${environment}
`;

const output = (run: Spawned) => `${run.stdout()}${run.stderr()}`;

async function repository(environment: string) {
  const repo = await gitRepository({ '.github/workflows/deploy.yml': workflow(environment) });
  await git(repo.dir, ['remote', 'add', 'origin', 'https://forge.example/acme/web.git']);
  return repo;
}

describe('environments on the built-in pool', () => {
  let server: PoolServer;
  let configDir: string;
  before(async () => {
    configDir = await mkdtemp(join(tmpdir(), 'svc-e2e-env-'));
    const config = join(configDir, 'config.toml');
    await writeFile(config, RULES, { mode: 0o600 });
    server = await startServerWithPool('process', { warm: 1, max: 2, env: { SVC_CONFIG: config } });
  });
  after(async () => {
    await server?.stop();
    await rm(configDir, { recursive: true, force: true });
  });

  it('a job under a reviewer rule waits while svc run follows and says how to approve it; svc approve releases it', async (t) => {
    const repo = await repository('production');
    t.after(repo.remove);
    const run = svcRun([], server.cliEnv, repo.dir);
    await run.waitFor(/svc approve \d+ --job \d+/, 180_000);
    const [, runId, jobId] = /svc approve (\d+) --job (\d+)/.exec(run.stdout()) ?? [];
    assert.match(run.stdout(), /^job deploy: pending \(waiting for approval: environment production requires a review \(svc approve \d+ --job \d+\)\)$/m);
    assert.match(run.stdout(), /^build \| built$/m);

    const approve = spawnTs('cli/svc.ts', ['approve', String(runId), '--job', 'deploy'], server.cliEnv, repo.dir);
    assert.equal(await approve.exited, 0, output(approve));
    assert.equal(approve.stdout(), `approved job deploy (id ${jobId}) of run ${runId} for environment production (admin_override); it is queued now\n`);

    assert.equal(await run.exited, 0, output(run));
    assert.match(run.stdout(), /^deploy \| deployed to production$/m);
    assert.match(run.stdout(), /^run \d+: success/m);
  });

  it("a branch the environment's deployment branches do not allow fails the job with GitHub's wording", async (t) => {
    const repo = await repository('staging');
    t.after(repo.remove);
    const run = svcRun([], server.cliEnv, repo.dir);
    assert.equal(await run.exited, 1, output(run));
    assert.match(run.stdout(), /^job deploy: failure \(Branch "main" is not allowed to deploy to staging due to environment protection rules\.\)$/m);
    assert.doesNotMatch(run.stdout(), /deployed to/);
  });
});
