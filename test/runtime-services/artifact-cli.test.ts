/**
 * Getting a run's artifacts out, as a person does: uploaded by the real `@actions/artifact` in a
 * job step (a zip deflated, a zip stored, a raw file), then listed and downloaded through
 * `GET /api/v1/runs/{run_id}/artifacts[/{id}/zip]`, through the artifact URL upload-artifact
 * prints (`<server_url>/<owner>/<repo>/actions/runs/<run_id>/artifacts/<id>`), and with
 * `svc artifacts list|download` against the running server.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import type { ArtifactListView, ArtifactView } from '../../plugins/runtime-services/artifacts/index.js';
import { TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { getLikeCurl as get, type Got } from '../support/loopback-get.js';
import { onCleanup } from '../support/services.js';
import { spawnCli } from '../support/spawn-cli.js';
import { dispatch, finish, REPOSITORY, runStep, startRun, stepDirs, stepEnv } from './job-steps.js';
import { onSqliteOnly, runtimeHost, STORES, type RuntimeHost } from './runtime-host.js';

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - run: make
`;

interface Upload {
  readonly id: number;
  readonly size: number;
  readonly digest: string;
}

interface Uploaded {
  readonly runId: number;
  /** The job's `GITHUB_SERVER_URL` (`http://svc.localhost:<port>`). */
  readonly serverUrl: string;
  readonly dist: Upload;
  readonly stored: Upload;
  readonly raw: Upload;
  readonly payload: Buffer;
}

/** One job uploads three artifacts with the real client: `dist` (deflated), `stored` (compression level 0), `report.txt` (raw). */
async function uploadThree(t: TestContext, h: RuntimeHost): Promise<Uploaded> {
  const run = await startRun(h, WORKFLOW);
  const job = await dispatch(h);
  const dirs = stepDirs(t);
  const env = stepEnv(job.message, dirs);
  const payload = randomBytes(3 * 1024 * 1024);
  mkdirSync(join(dirs.workspace, 'dist', 'sub'), { recursive: true });
  writeFileSync(join(dirs.workspace, 'dist', 'app.bin'), payload);
  writeFileSync(join(dirs.workspace, 'dist', 'sub', 'notes.txt'), 'release notes\n');
  writeFileSync(join(dirs.workspace, 'report.txt'), 'all green\n');
  const files = ['dist/app.bin', 'dist/sub/notes.txt'].map((file) => join(dirs.workspace, file));
  const root = join(dirs.workspace, 'dist');
  const { result: dist } = await runStep<Upload>(env, 'artifact-upload', { name: 'dist', files, root });
  const { result: stored } = await runStep<Upload>(env, 'artifact-upload', { name: 'stored', files, root, options: { compressionLevel: 0 } });
  const { result: raw } = await runStep<Upload>(env, 'artifact-upload', { name: 'report', files: [join(dirs.workspace, 'report.txt')], root: dirs.workspace, options: { skipArchive: true } });
  await finish(h, job);
  return { runId: run.id, serverUrl: env['GITHUB_SERVER_URL'] ?? '', dist, stored, raw, payload };
}

const bearer = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` };
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const json = (got: Got): Record<string, unknown> => JSON.parse(got.body.toString('utf8')) as Record<string, unknown>;

for (const store of STORES) {
  const cliTest = onSqliteOnly(store.kind);
  describe(`a run's artifacts for people (${store.kind})`, { skip: store.skip }, () => {
    test('GET /api/v1/runs/{run_id}/artifacts lists them; .../{id}/zip streams each as uploaded', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const up = await uploadThree(t, h);
      const list = await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts`, bearer);
      assert.equal(list.status, 200, list.body.toString());
      const { artifacts } = json(list) as unknown as ArtifactListView;
      assert.deepEqual(
        artifacts.map((a) => [a.id, a.name, a.size, a.digest, a.content_type]),
        [
          [up.dist.id, 'dist', up.dist.size, `sha256:${up.dist.digest}`, 'application/zip'],
          [up.stored.id, 'stored', up.stored.size, `sha256:${up.stored.digest}`, 'application/zip'],
          [up.raw.id, 'report.txt', up.raw.size, `sha256:${up.raw.digest}`, 'text/plain'],
        ],
      );
      const [first] = artifacts as ArtifactView[];
      assert.ok(first !== undefined && first.job_id > 0 && Date.parse(first.expires_at) > Date.parse(first.created_at), JSON.stringify(first));

      for (const artifact of artifacts) {
        const zip = await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts/${artifact.id}/zip`, bearer);
        assert.equal(zip.status, 200);
        assert.equal(sha256(zip.body), artifact.digest, `${artifact.name}: the bytes the uploader hashed`);
        assert.equal(zip.headers['content-length'], String(artifact.size));
        // The first local header's method: compression level 0 stores, the default deflates.
        if (artifact.name !== 'report.txt') assert.equal(zip.body.readUInt16LE(8), artifact.name === 'stored' ? 0 : 8, artifact.name);
      }
      const raw = await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts/${up.raw.id}/zip`, bearer);
      assert.equal(raw.body.toString(), 'all green\n');
      assert.match(String(raw.headers['content-disposition']), /filename="report\.txt"/);
      const dist = await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts/${up.dist.id}/zip`, bearer);
      assert.equal(dist.headers['content-type'], 'application/zip');
      assert.match(String(dist.headers['content-disposition']), /filename="dist\.zip"/);
    });

    test('unknown runs and artifacts are 404, bad ids 400, no token 401', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const up = await uploadThree(t, h);
      const other = await startRun(h, WORKFLOW);
      const cases: [string, number, string][] = [
        [`/api/v1/runs/999999/artifacts`, 404, 'run_not_found'],
        [`/api/v1/runs/${other.id}/artifacts/${up.dist.id}/zip`, 404, 'artifact_not_found'],
        [`/api/v1/runs/${up.runId}/artifacts/999999/zip`, 404, 'artifact_not_found'],
        [`/api/v1/runs/abc/artifacts`, 400, 'invalid_request'],
        [`/api/v1/runs/${up.runId}/artifacts/0/zip`, 400, 'invalid_request'],
      ];
      for (const [path, status, code] of cases) {
        const got = await get(`${h.baseUrl}${path}`, bearer);
        assert.deepEqual([got.status, json(got)['code']], [status, code], `${path}: ${got.body.toString()}`);
      }
      const empty = await get(`${h.baseUrl}/api/v1/runs/${other.id}/artifacts`, bearer);
      assert.deepEqual(json(empty), { artifacts: [] }, 'another run of the repository has none of them');
      assert.match(json(await get(`${h.baseUrl}/api/v1/runs/abc/artifacts`, bearer))['message'] as string, /run_id must be a positive whole number/);
      assert.equal((await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts`)).status, 401);
    });

    test('the artifact URL upload-artifact prints: the zip with the system token, how to get it without', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const up = await uploadThree(t, h);
      assert.match(up.serverUrl, /^http:\/\/svc\.localhost:\d+$/, 'jobs see the loopback server as svc.localhost (the host gate)');
      // What upload-artifact builds from github.context: serverUrl, repo, runId, and the id FinalizeArtifact gave.
      const url = `${up.serverUrl}/${REPOSITORY}/actions/runs/${up.runId}/artifacts/${up.dist.id}`;

      const anonymous = await get(url);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="svc"');
      assert.equal(json(anonymous)['code'], 'missing_credential');
      const message = json(anonymous)['message'] as string;
      assert.match(message, new RegExp(`svc artifacts list ${up.runId}\``));
      assert.match(message, new RegExp(`svc artifacts download ${up.runId} --name <name>`));
      assert.match(message, /Authorization: Bearer/);
      const wrong = await get(url, { authorization: 'Bearer not-the-token' });
      assert.deepEqual([wrong.status, json(wrong)['code']], [401, 'invalid_credential']);
      // No token: nothing tells whether the run exists.
      assert.equal((await get(`${up.serverUrl}/${REPOSITORY}/actions/runs/999999/artifacts/1`)).status, 401);

      const zip = await get(url, bearer);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers['content-type'], 'application/zip');
      assert.equal(sha256(zip.body), `sha256:${up.dist.digest}`);
      const elsewhere = await get(`${up.serverUrl}/acme/other/actions/runs/${up.runId}/artifacts/${up.dist.id}`, bearer);
      assert.equal(elsewhere.status, 404);
      assert.match(json(elsewhere)['message'] as string, new RegExp(`run ${up.runId} is a run of ${REPOSITORY}, not of acme/other`));
      const missing = await get(`${up.serverUrl}/${REPOSITORY}/actions/runs/${up.runId}/artifacts/999999`, bearer);
      assert.deepEqual([missing.status, json(missing)['code']], [404, 'artifact_not_found']);
    });

    cliTest('svc artifacts list and download: every artifact into <dir>/<name>/, unpacked; --name picks one; a missing name says which exist', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const up = await uploadThree(t, h);
      const env = cliEnv(t, h);

      const listed = await svc(['artifacts', 'list', String(up.runId)], env);
      assert.equal(listed.code, 0, listed.output);
      const lines = listed.output.trimEnd().split('\n');
      assert.match(lines[0] ?? '', /^ID\s+NAME\s+SIZE\s+JOB\s+CREATED\s+EXPIRES$/);
      assert.deepEqual(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 2)), [
        [String(up.dist.id), 'dist'],
        [String(up.stored.id), 'stored'],
        [String(up.raw.id), 'report.txt'],
      ]);
      const asJson = await svc(['artifacts', 'list', String(up.runId), '--json'], env);
      assert.deepEqual(JSON.parse(asJson.output), json(await get(`${h.baseUrl}/api/v1/runs/${up.runId}/artifacts`, bearer)));

      const out = mkdtempSync(join(tmpdir(), 'svc-artifacts-out-'));
      onCleanup(t, () => rmSync(out, { recursive: true, force: true }));
      const all = await svc(['artifacts', 'download', String(up.runId), '--dir', out], env);
      assert.equal(all.code, 0, all.output);
      assert.match(all.output, new RegExp(`^dist: 2 files, 3\\.0 MiB -> ${out}/dist$`, 'm'));
      assert.deepEqual(readdirSync(out).sort(), ['dist', 'report.txt', 'stored'], 'one directory per artifact, no leftovers');
      for (const name of ['dist', 'stored']) {
        assert.ok(readFileSync(join(out, name, 'app.bin')).equals(up.payload), `${name}: the 3 MiB file round-trips`);
        assert.equal(readFileSync(join(out, name, 'sub', 'notes.txt'), 'utf8'), 'release notes\n');
      }
      assert.equal(readFileSync(join(out, 'report.txt', 'report.txt'), 'utf8'), 'all green\n', 'a raw upload is saved as its file, as download-artifact does');

      const one = join(out, 'one');
      const picked = await svc(['artifacts', 'download', String(up.runId), '--name', 'stored', '--dir', one], env);
      assert.equal(picked.code, 0, picked.output);
      assert.deepEqual(readdirSync(one), ['stored']);

      const missing = await svc(['artifacts', 'download', String(up.runId), '--name', 'nope', '--dir', one], env);
      assert.equal(missing.code, 1);
      assert.equal(missing.output, `svc artifacts download: run ${up.runId} has no artifact named 'nope'; its artifacts: dist, stored, report.txt\n`);
      const unknown = await svc(['artifacts', 'list', '999999'], env);
      assert.deepEqual([unknown.code, unknown.output], [1, 'svc artifacts list: run 999999 does not exist (HTTP 404)\n']);
      const bad = await svc(['artifacts', 'download', 'x'], env);
      assert.deepEqual([bad.code, bad.output], [1, "svc artifacts download: 'x' is not a run id; a run id is a positive whole number (e.g. svc artifacts list 42)\n"]);
    });
  });
}

/** The CLI's environment: the started server and the system token, with a plugins file naming runtime-services. */
function cliEnv(t: TestContext, h: RuntimeHost): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-artifacts-cli-'));
  onCleanup(t, () => rmSync(dir, { recursive: true, force: true }));
  const plugins = join(dir, 'plugins.toml');
  writeFileSync(plugins, '[[plugin]]\nid = "runtime-services"\n');
  return { HOME: dir, SVC_URL: h.baseUrl, SVC_TOKEN: TEST_SYSTEM_TOKEN, SVC_PLUGINS: plugins };
}

async function svc(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const cli = spawnCli('svc', args, env);
  const { code } = await cli.exited;
  return { code, output: cli.output() };
}
