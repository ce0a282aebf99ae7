/**
 * Artifacts v4 with the real, unmodified `@actions/artifact` in job steps' processes: an upload
 * in one job (zip streamed as Azure blocks) downloaded by name in a dependent job, a raw
 * (unzipped) upload, listing and deletion, and isolation: a job of another run neither sees nor
 * reaches the artifacts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import type { DispatchedJob } from '../runner-protocol/worker-job.js';
import { dispatch, finish, runStep, startRun, stepDirs, stepEnv } from './job-steps.js';
import { onSqliteOnly, runtimeHost, STORES, type RuntimeHost } from './runtime-host.js';
import { twirp } from './twirp-client.js';

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - run: make
  test:
    needs: build
    runs-on: [self-hosted, linux]
    steps:
      - run: make test
`;

interface StepJob {
  readonly dispatched: DispatchedJob;
  readonly env: Record<string, string>;
  readonly workspace: string;
}

async function next(t: TestContext, h: RuntimeHost): Promise<StepJob> {
  const dispatched = await dispatch(h);
  const dirs = stepDirs(t);
  return { dispatched, env: stepEnv(dispatched.message, dirs), workspace: dirs.workspace };
}

interface Upload {
  readonly id: number;
  readonly size: number;
  readonly digest: string;
}


for (const store of STORES) {
  const wireTest = onSqliteOnly(store.kind);
  describe(`@actions/artifact against svc (${store.kind})`, { skip: store.skip }, () => {
    wireTest('an artifact uploaded by one job is downloaded by name in the job that needs it', async (t) => {
      const h = await runtimeHost(t, store.kind);
      await startRun(h, WORKFLOW);
      const build = await next(t, h);
      assert.equal(build.dispatched.assignment.job.jobKey, 'build');
      const payload = randomBytes(20 * 1024 * 1024);
      mkdirSync(join(build.workspace, 'dist', 'sub'), { recursive: true });
      writeFileSync(join(build.workspace, 'dist', 'app.bin'), payload);
      writeFileSync(join(build.workspace, 'dist', 'sub', 'notes.txt'), 'release notes');
      const files = ['dist/app.bin', 'dist/sub/notes.txt'].map((file) => join(build.workspace, file));
      const { result: uploaded } = await runStep<Upload>(build.env, 'artifact-upload', { name: 'dist', files, root: join(build.workspace, 'dist') });
      assert.ok(uploaded.id > 0 && uploaded.size > payload.length / 2, JSON.stringify(uploaded));
      await finish(h, build.dispatched);

      const tester = await next(t, h);
      assert.equal(tester.dispatched.assignment.job.jobKey, 'test');
      const { result: listed } = await runStep<{ artifacts: { name: string; id: number; size: number; digest?: string }[] }>(tester.env, 'artifact-list', {});
      assert.deepEqual(
        listed.artifacts.map((artifact) => [artifact.name, artifact.id, artifact.size, artifact.digest]),
        [['dist', uploaded.id, uploaded.size, `sha256:${uploaded.digest}`]],
      );
      const target = join(tester.workspace, 'in');
      const { result } = await runStep<{ download: { digestMismatch: boolean } }>(tester.env, 'artifact-download', { name: 'dist', path: target });
      assert.equal(result.download.digestMismatch, false, 'the digest the uploader computed matches the bytes served');
      assert.ok(readFileSync(join(target, 'app.bin')).equals(payload), 'the 20 MiB file round-trips byte for byte');
      assert.equal(readFileSync(join(target, 'sub', 'notes.txt'), 'utf8'), 'release notes');
    });

    test('a raw (skipArchive) artifact keeps its file name; names are unique per run; delete removes it', async (t) => {
      const h = await runtimeHost(t, store.kind);
      await startRun(h, WORKFLOW);
      const build = await next(t, h);
      writeFileSync(join(build.workspace, 'report.txt'), 'all green');
      const file = join(build.workspace, 'report.txt');
      await runStep(build.env, 'artifact-upload', { name: 'report', files: [file], root: build.workspace, options: { skipArchive: true } });
      const again = await runStep<unknown>(build.env, 'artifact-upload', { name: 'report', files: [file], root: build.workspace, options: { skipArchive: true } }).catch(
        (error: Error) => error,
      );
      assert.ok(again instanceof Error && /already exists/.test(again.message), 'a second upload of the name fails with a conflict');
      await finish(h, build.dispatched);

      const tester = await next(t, h);
      const target = join(tester.workspace, 'in');
      await runStep(tester.env, 'artifact-download', { name: 'report.txt', path: target });
      assert.equal(readFileSync(join(target, 'report.txt'), 'utf8'), 'all green');
      await runStep(tester.env, 'artifact-delete', { name: 'report.txt' });
      const { result: listed } = await runStep<{ artifacts: unknown[] }>(tester.env, 'artifact-list', {});
      assert.deepEqual(listed.artifacts, []);
    });

    test("a job of another run cannot list, download or delete this run's artifacts", async (t) => {
      const h = await runtimeHost(t, store.kind);
      await startRun(h, WORKFLOW);
      const build = await next(t, h);
      writeFileSync(join(build.workspace, 'secret.txt'), 'run one only');
      await runStep(build.env, 'artifact-upload', { name: 'one', files: [join(build.workspace, 'secret.txt')], root: build.workspace });

      await startRun(h, WORKFLOW);
      const other = await next(t, h);
      assert.notEqual(other.dispatched.assignment.run.id, build.dispatched.assignment.run.id);
      const { result: listed } = await runStep<{ artifacts: unknown[] }>(other.env, 'artifact-list', {});
      assert.deepEqual(listed.artifacts, [], "another run's artifacts are not listed");
      const download = await runStep(other.env, 'artifact-download', { name: 'one', path: join(other.workspace, 'in') }).catch((error: Error) => error);
      assert.ok(download instanceof Error, 'download by name fails in another run');

      // Asking directly with the first run's backend ids and the other run's token.
      const token = other.env['ACTIONS_RUNTIME_TOKEN'] ?? '';
      const ids = { workflow_run_backend_id: build.dispatched.info.planId, workflow_job_run_backend_id: build.dispatched.info.jobId };
      for (const method of ['ListArtifacts', 'GetSignedArtifactURL', 'DeleteArtifact']) {
        const answer = await twirp(h.baseUrl, 'ArtifactService', method, { ...ids, name: 'one' }, token);
        assert.equal(answer.status, 403, `${method} with another run's ids`);
        assert.equal(answer.body['code'], 'permission_denied');
      }
      const own = await twirp(h.baseUrl, 'ArtifactService', 'GetSignedArtifactURL', { ...ids, name: 'one' }, build.env['ACTIONS_RUNTIME_TOKEN'] ?? '');
      assert.equal(own.status, 200, 'the first run still reaches it');
    });
  });
}
