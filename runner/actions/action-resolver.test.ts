import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { capturingLog, fakeJob, type FakeJob } from '../../test/svc-runner/fixtures/actions-fake-context.js';
import type { ActionServer, ResolveContext } from '../handlers/index.js';
import { actionDefinitionOf } from './action-definition.js';
import { createActionResolver } from './action-resolver.js';
import type { FetchLike } from './http-retry.js';

async function tarball(entries: Readonly<Record<string, string>>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const [name, content] of Object.entries(entries)) archive.entry({ name }, content);
  archive.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

interface Served {
  readonly sha: string;
  readonly files: Readonly<Record<string, string>>;
}

/** A scripted job server: connectionData, actiondownloadinfo (legacy) or runnerresolve (run service), tarballs. */
function scriptedServer(actions: Record<string, Served>) {
  const calls: string[] = [];
  const batches: unknown[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    calls.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname.endsWith('/_apis/connectionData')) {
      return Response.json({
        locationServiceData: {
          serviceDefinitions: [{ identifier: '27d7f831-88c1-4719-8ca1-6a061dad90eb', relativePath: '{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}/actiondownloadinfo', resourceVersion: 1 }],
        },
      });
    }
    if (url.pathname.startsWith('/tarballs/')) {
      const key = decodeURIComponent(url.pathname.slice('/tarballs/'.length));
      const served = actions[key];
      assert.equal(new Headers(init.headers).get('authorization'), `Basic ${Buffer.from('x-access-token:ghs_github').toString('base64')}`);
      return served === undefined ? new Response('gone', { status: 404 }) : new Response(await tarball(served.files));
    }
    const body = JSON.parse(String(init.body)) as { actions: Array<Record<string, string>> };
    batches.push(body.actions);
    const snake = url.pathname.includes('runnerresolve');
    const answer: Record<string, unknown> = {};
    const missing: Record<string, { message: string }> = {};
    for (const entry of body.actions) {
      const name = snake ? entry['action'] : entry['nameWithOwner'];
      const ref = snake ? entry['version'] : entry['ref'];
      const key = `${name}@${ref}`;
      const served = actions[key];
      if (served === undefined) {
        missing[key] = { message: `the mirror has no ${name ?? ''}.git` };
        continue;
      }
      const tar = `http://127.0.0.1:9/tarballs/${encodeURIComponent(key)}`;
      answer[key] = snake
        ? { name, resolved_name: name, resolved_sha: served.sha, tar_url: tar, zip_url: tar, version: ref }
        : { nameWithOwner: name, resolvedNameWithOwner: name, ref, resolvedSha: served.sha, tarballUrl: tar, zipballUrl: tar };
    }
    if (Object.keys(missing).length > 0) {
      return snake ? Response.json({ errors: missing }, { status: 422 }) : Response.json({ message: Object.values(missing).map((m) => m.message).join('; '), typeKey: 'NotFound' }, { status: 404 });
    }
    return Response.json({ actions: answer });
  };
  return { fetch, calls, batches };
}

const SERVER: ActionServer = {
  mode: 'legacy',
  url: 'http://127.0.0.1:9/',
  accessToken: 'job-token',
  planId: 'p1',
  scopeIdentifier: '00000000-0000-0000-0000-000000000000',
  hubName: 'actions',
  jobId: 'j1',
  launchUrl: 'http://127.0.0.1:9/launch',
  githubToken: 'ghs_github',
};

function resolveContext(job: FakeJob, extra: Partial<ResolveContext> = {}): ResolveContext {
  return { directories: job.context().directories, log: capturingLog(job.log), signal: new AbortController().signal, server: SERVER, ...extra };
}

const COMPOSITE = 'name: tool\nruns:\n  using: composite\n  steps:\n    - uses: acme/nested@v2\n    - uses: ./local\n    - uses: docker://alpine\n';
const NODE = 'name: nested\nruns:\n  using: node20\n  main: index.js\n  pre: pre.js\n  pre-if: runner.os == \'Linux\'\n';

describe('the action resolver', () => {
  it('resolves the job\'s remote actions in one batch, downloads them into _actions/<owner>/<repo>/<ref>, and prepares what composites use', async (t) => {
    const job = await fakeJob(t);
    const server = scriptedServer({
      'acme/tool@v1': { sha: 'a'.repeat(40), files: { 'acme-tool-aaaaaaa/action.yml': COMPOSITE, 'acme-tool-aaaaaaa/sub/action.yml': NODE } },
      'acme/nested@v2': { sha: 'b'.repeat(40), files: { 'acme-nested-bbbbbbb/action.yml': NODE, 'acme-nested-bbbbbbb/index.js': '' } },
    });
    const resolver = createActionResolver({ fetch: server.fetch, retryDelayMs: 1 });
    const tool = { kind: 'repository' as const, name: 'acme/tool', ref: 'v1', path: '', repositoryType: 'GitHub' };
    const sub = { ...tool, path: 'sub' };
    const context = resolveContext(job, { references: [{ kind: 'script' }, tool, sub, { kind: 'repository', name: '', ref: '', path: './x', repositoryType: 'self' }] });
    const resolved = await resolver.resolve(tool, context);
    assert.equal(resolved.using, 'composite');
    assert.equal(resolved.directory, join(job.actions, 'acme', 'tool', 'v1'));
    const subResolved = await resolver.resolve(sub, context);
    assert.deepEqual([subResolved.using, subResolved.directory, subResolved.pre], ['node20', join(job.actions, 'acme', 'tool', 'v1', 'sub'), { condition: "runner.os == 'Linux'" }]);
    assert.deepEqual(server.batches, [[{ nameWithOwner: 'acme/tool', ref: 'v1', path: '' }], [{ nameWithOwner: 'acme/nested', ref: 'v2', path: '' }]]);
    assert.deepEqual(server.calls, [
      'GET /_apis/connectionData',
      'POST /00000000-0000-0000-0000-000000000000/_apis/distributedtask/hubs/actions/plans/p1/actiondownloadinfo',
      'GET /tarballs/acme%2Ftool%40v1',
      'POST /00000000-0000-0000-0000-000000000000/_apis/distributedtask/hubs/actions/plans/p1/actiondownloadinfo',
      'GET /tarballs/acme%2Fnested%40v2',
    ]);
    assert.equal(await readFile(join(job.actions, 'acme', 'tool', 'v1.completed'), 'utf8'), `${'a'.repeat(40)}\n`);
    assert.equal(await readFile(join(job.actions, 'acme', 'nested', 'v2', 'index.js'), 'utf8'), '');
    assert.deepEqual(job.log.lines, [`Download action repository 'acme/tool@v1' (SHA:${'a'.repeat(40)})`, `Download action repository 'acme/nested@v2' (SHA:${'b'.repeat(40)})`]);
    const definition = actionDefinitionOf(resolved);
    assert.deepEqual(definition?.kind === 'manifest' ? definition.origin : undefined, { repository: 'acme/tool', ref: 'v1', sha: 'a'.repeat(40), display: 'acme/tool@v1' });

    // The next job on this runner: same commit, nothing downloaded; a moved ref is downloaded again.
    job.log.lines.length = 0;
    const again = scriptedServer({ 'acme/tool@v1': { sha: 'a'.repeat(40), files: {} }, 'acme/nested@v2': { sha: 'c'.repeat(40), files: { 'x/action.yml': NODE } } });
    await createActionResolver({ fetch: again.fetch, retryDelayMs: 1 }).resolve(tool, resolveContext(job));
    assert.ok(!again.calls.some((call) => call.includes('/tarballs/acme%2Ftool')), again.calls.join('\n'));
    assert.ok(again.calls.includes('GET /tarballs/acme%2Fnested%40v2'));
    assert.deepEqual(job.log.lines, [`Download action repository 'acme/nested@v2' (SHA:${'c'.repeat(40)})`]);
  });

  it('uses the run-service route and shows its 422 messages', async (t) => {
    const job = await fakeJob(t);
    const server = scriptedServer({});
    const resolver = createActionResolver({ fetch: server.fetch, retryDelayMs: 1 });
    const gone = { kind: 'repository' as const, name: 'acme/gone', ref: 'v1', path: '', repositoryType: 'GitHub' };
    await assert.rejects(resolver.resolve(gone, resolveContext(job, { server: { ...SERVER, mode: 'run-service', dependencies: ['acme/gone@v1:sha256-x'] } })), {
      message: 'Unable to resolve action(s): acme/gone@v1: the mirror has no acme/gone.git',
    });
    assert.deepEqual(server.calls, ['POST /actions/build/p1/jobs/j1/runnerresolve/actions']);
    assert.deepEqual(server.batches, [[{ action: 'acme/gone', version: 'v1', path: '' }]]);
  });

  it('fails clearly: a legacy 404, an archive with two top-level directories, a missing manifest, no server, $/ without the feature', async (t) => {
    const job = await fakeJob(t);
    const server = scriptedServer({
      'acme/two@v1': { sha: 'd'.repeat(40), files: { 'one/action.yml': NODE, 'two/action.yml': NODE } },
      'acme/empty@v1': { sha: 'e'.repeat(40), files: { 'top/README.md': 'hi' } },
    });
    const resolver = createActionResolver({ fetch: server.fetch, retryDelayMs: 1 });
    const ref = (name: string) => ({ kind: 'repository' as const, name, ref: 'v1', path: '', repositoryType: 'GitHub' });
    await assert.rejects(resolver.resolve(ref('acme/gone'), resolveContext(job)), { message: 'Unable to resolve action acme/gone@v1: the server answered 404 (the mirror has no acme/gone.git)' });
    await assert.rejects(resolver.resolve(ref('acme/two'), resolveContext(job)), { message: "The archive of 'acme/two@v1' contains '2' directories; exactly one top-level directory is required" });
    await assert.rejects(resolver.resolve(ref('acme/empty'), resolveContext(job)), { message: "Can't find 'action.yml', 'action.yaml' or 'Dockerfile' for action 'acme/empty@v1'." });
    await assert.rejects(createActionResolver().resolve(ref('acme/x'), resolveContext(job, { server: undefined as unknown as ActionServer })), /need the job's server/);
    await assert.rejects(resolver.resolve({ kind: 'repository', name: '', ref: '', path: 'x', repositoryType: 'selfRepository' }, resolveContext(job)), /Unable to resolve self-reference '\$\/'/);
  });

  it('resolves $/path to the workflow repository at its commit, docker:// images and local actions without the server', async (t) => {
    const job = await fakeJob(t);
    const sha = 'f'.repeat(40);
    const server = scriptedServer({ [`acme/widgets@${sha}`]: { sha, files: { 'w/tools/greet/action.yml': NODE } } });
    const resolver = createActionResolver({ fetch: server.fetch, retryDelayMs: 1 });
    const self = await resolver.resolve({ kind: 'repository', name: '', ref: '', path: 'tools/greet', repositoryType: 'selfRepository' }, resolveContext(job, { server: { ...SERVER, selfRepository: { name: 'acme/widgets', sha } } }));
    assert.deepEqual([self.using, self.directory], ['node20', join(job.actions, 'acme', 'widgets', sha, 'tools', 'greet')]);
    const image = await resolver.resolve({ kind: 'container', image: 'alpine:3' }, resolveContext(job));
    assert.deepEqual(image, { using: 'docker', manifest: { kind: 'container', image: { kind: 'registry', image: 'alpine:3' }, origin: { display: 'docker://alpine:3' } } });
    const local = await resolver.resolve({ kind: 'repository', name: '', ref: '', path: './.github/actions/x', repositoryType: 'self' }, resolveContext(job));
    assert.equal(local.using, 'svc-local-action');
  });
});
