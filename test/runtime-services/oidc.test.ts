/**
 * The OIDC provider with the real `@actions/core.getIDToken()` in a job step's process: the token
 * verifies against our JWKS (found through the discovery document) with GitHub's claim set;
 * only jobs granted `id-token: write` get one, after the operator's token ceiling; keys rotate
 * with overlap.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { RunOptions } from './job-steps.js';
import { dispatch, finish, runStep, startRun, stepDirs, stepEnv } from './job-steps.js';
import { operatorConfigEnv } from '../support/operator-config.js';
import { runtimeHost, STORES, type RuntimeHost } from './runtime-host.js';
import { call } from './twirp-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function workflow(job: string): string {
  return `on: [push, pull_request]
permissions:
  contents: read
  id-token: write
jobs:
  deploy:
    runs-on: [self-hosted, linux]
${job}    steps:
      - run: deploy
`;
}

async function jobEnv(t: TestContext, h: RuntimeHost, yaml: string, options: RunOptions = {}) {
  await startRun(h, yaml, options);
  const dispatched = await dispatch(h);
  return { dispatched, env: stepEnv(dispatched.message, stepDirs(t)) };
}

async function idToken(env: Record<string, string>, audience?: string): Promise<string> {
  const { result } = await runStep<{ token: string }>(env, 'id-token', audience === undefined ? {} : { audience });
  return result.token;
}

/** Verifies like a cloud provider: discovery document, then its JWKS. */
async function verify(h: RuntimeHost, token: string, audience: string): Promise<JWTPayload> {
  const discovery = await call(`${h.baseUrl}/.well-known/openid-configuration`);
  assert.equal(discovery.status, 200);
  assert.equal(discovery.body['issuer'], h.baseUrl);
  const jwks = await call(String(discovery.body['jwks_uri']));
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body as unknown as JSONWebKeySet), {
    issuer: h.baseUrl,
    audience,
    algorithms: ['RS256'],
    currentDate: new Date(h.clock.now()),
  });
  return payload;
}

for (const store of STORES) {
  describe(`OIDC ID tokens (${store.kind})`, { skip: store.skip }, () => {
    test("getIDToken: an RS256 token that verifies against the JWKS, with GitHub's claims", async (t) => {
      const h = await runtimeHost(t, store.kind);
      const { env, dispatched } = await jobEnv(t, h, workflow('    environment: production\n'));
      assert.match(env['ACTIONS_ID_TOKEN_REQUEST_URL'] ?? '', /\/_apis\/oidc\/idtoken\/[0-9a-f-]{36}\/[0-9a-f-]{36}\?api-version=2\.0$/);
      const claims = await verify(h, await idToken(env, 'sts.amazonaws.com'), 'sts.amazonaws.com');
      const run = dispatched.assignment.run;
      assert.equal(claims.sub, 'repo:acme/widgets:environment:production');
      assert.deepEqual(
        {
          repository: claims['repository'],
          repository_owner: claims['repository_owner'],
          ref: claims['ref'],
          ref_type: claims['ref_type'],
          sha: claims['sha'],
          environment: claims['environment'],
          event_name: claims['event_name'],
          run_id: claims['run_id'],
          run_attempt: claims['run_attempt'],
          actor: claims['actor'],
          workflow_ref: claims['workflow_ref'],
          job_workflow_ref: claims['job_workflow_ref'],
          job_workflow_sha: claims['job_workflow_sha'],
          runner_environment: claims['runner_environment'],
          repository_visibility: claims['repository_visibility'],
        },
        {
          repository: 'acme/widgets',
          repository_owner: 'acme',
          ref: 'refs/heads/main',
          ref_type: 'branch',
          sha: run.sha,
          environment: 'production',
          event_name: 'push',
          run_id: String(run.id),
          run_attempt: '1',
          actor: 'octo',
          workflow_ref: 'acme/widgets/.github/workflows/ci.yml@refs/heads/main',
          job_workflow_ref: 'acme/widgets/.github/workflows/ci.yml@refs/heads/main',
          job_workflow_sha: run.sha,
          runner_environment: 'self-hosted',
          repository_visibility: 'private',
        },
      );
      assert.ok(typeof claims.jti === 'string' && claims.exp === (claims.iat ?? 0) + 300);
    });

    test('the subject names the ref, or pull_request; the default audience is the owner URL on the server jobs see', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const push = await jobEnv(t, h, workflow(''), { ref: 'refs/tags/v1.2.0' });
      const owner = `${push.env['GITHUB_SERVER_URL']}/acme`;
      assert.equal((await verify(h, await idToken(push.env), owner)).sub, 'repo:acme/widgets:ref:refs/tags/v1.2.0');
      const pr = await jobEnv(t, h, workflow(''), {
        ref: 'refs/pull/9/merge',
        event: 'pull_request',
        payload: { action: 'opened', number: 9, pull_request: { number: 9, base: { ref: 'main' }, head: { ref: 'topic' } } },
      });
      const claims = await verify(h, await idToken(pr.env, 'aud'), 'aud');
      assert.equal(claims.sub, 'repo:acme/widgets:pull_request');
      assert.deepEqual([claims['base_ref'], claims['head_ref']], ['main', 'topic']);
    });

    test("only id-token: write jobs, on their own path, while they run, get a token", async (t) => {
      const h = await runtimeHost(t, store.kind);
      const granted = await jobEnv(t, h, workflow(''));
      const url = granted.env['ACTIONS_ID_TOKEN_REQUEST_URL'] ?? '';
      const denied = await jobEnv(t, h, workflow('    permissions:\n      contents: read\n'));
      assert.equal(denied.env['ACTIONS_ID_TOKEN_REQUEST_URL'], undefined, 'no URL without the permission');
      const deniedToken = denied.env['ACTIONS_RUNTIME_TOKEN'] ?? '';
      const ownPath = `${h.baseUrl}/_apis/oidc/idtoken/${denied.dispatched.info.planId}/${denied.dispatched.info.jobId}?api-version=2.0`;
      assert.equal((await call(ownPath, { headers: { authorization: `Bearer ${deniedToken}` } })).status, 403, 'the permission is checked, not just the URL');
      assert.equal((await call(url, { headers: { authorization: `Bearer ${deniedToken}` } })).status, 403, "another job's path");
      assert.equal((await call(url)).status, 401, 'no token');
      assert.equal((await call(url, { headers: { authorization: 'Bearer not.a.jwt' } })).status, 401, 'a bad token');
      assert.equal((await call(`${url}&audience=${'a'.repeat(2000)}`, { headers: { authorization: `Bearer ${granted.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN']}` } })).status, 400);
      await finish(h, granted.dispatched);
      assert.equal((await call(url, { headers: { authorization: `Bearer ${granted.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN']}` } })).status, 401, 'a finished job');
    });

    test('a token ceiling with id-token = "none" takes the grant away: the route refuses the job token, and getIDToken fails', async (t) => {
      const h = await runtimeHost(t, store.kind, await operatorConfigEnv(t, '[token_permissions_ceiling]\nid-token = "none"\n'));
      // The test's dispatch builds the message without the ceiling (test/runner-protocol/token-ceiling.test.ts
      // has the server's, which gives no URL): a job that knows the URL anyway is refused by the server.
      const capped = await jobEnv(t, h, workflow(''));
      const url = capped.env['ACTIONS_ID_TOKEN_REQUEST_URL'] ?? '';
      const refused = await call(url, { headers: { authorization: `Bearer ${capped.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'] ?? ''}` } });
      assert.equal(refused.status, 403);
      assert.equal(refused.body['code'], 'id_token_forbidden');
      await assert.rejects(idToken(capped.env, 'aud'), /Failed to get ID Token[\s\S]*403/);
    });

    test('keys rotate with overlap: the next key is published before it signs, the old one stays a while', async (t) => {
      const h = await runtimeHost(t, store.kind, { SVC_OIDC_KEY_ROTATION_DAYS: '4' });
      const kids = async () => ((await call(`${h.baseUrl}/.well-known/jwks`)).body['keys'] as { kid: string }[]).map((key) => key.kid);
      // A job of its own each time: a job token lives as long as its job may (hours), not days.
      const signer = async () => {
        const token = await idToken((await jobEnv(t, h, workflow(''))).env, 'aud');
        await verify(h, token, 'aud');
        return decodeProtectedHeader(token).kid;
      };
      const first = await signer();
      assert.deepEqual(await kids(), [first]);
      h.clock.advance(3 * DAY_MS + 60_000); // past rotation - lead (one day)
      assert.equal(await signer(), first, 'the old key still signs');
      const published = await kids();
      assert.equal(published.length, 2, 'the next key is published ahead');
      h.clock.advance(DAY_MS);
      const second = await signer();
      assert.notEqual(second, first);
      assert.deepEqual(await kids(), published, 'the replaced key is still published');
      h.clock.advance(DAY_MS + 60_000);
      assert.deepEqual(await kids(), [second], 'and gone after the overlap');
    });
  });
}
