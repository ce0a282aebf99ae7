import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import Fastify from 'fastify';
import { decodeJwt } from 'jose';
import { createMemoryCredentialStore } from '../../backends/credentials/index.js';
import { localSharedKeys, randomIds } from '../../core/kernel/index.js';
import type { JobRecord } from '../../core/engine/index.js';
import {
  createJobTokens,
  JobAttemptEndedError,
  jobTokenOf,
  jobTokenTtlSeconds,
  loadSigningKey,
  requireJobToken,
  type JobAttempts,
  type JobTokenClaims,
} from '../../plugins/runner-protocol/auth/index.js';
import { jobIdFor, planIdFor } from '../../plugins/runner-protocol/job-message/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup } from '../support/services.js';

const planId = planIdFor({ id: 7, runAttempt: 1 });
const claims: JobTokenClaims = { runId: 7, jobId: 21, agentId: 3, planId, timelineId: planId, attempt: 1 };

/** Every attempt live, unless `ended` says otherwise (the store's side is tested with real jobs in finished-job-token.test.ts). */
function attemptsOf(state: { ended?: JobAttemptEndedError }): JobAttempts {
  return {
    requireLive: async () => {
      if (state.ended !== undefined) throw state.ended;
      return {} as JobRecord;
    },
  };
}

async function tokens(state: { ended?: JobAttemptEndedError } = {}) {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const key = await loadSigningKey(localSharedKeys(createMemoryCredentialStore()));
  return { clock, jobTokens: createJobTokens({ key, clock, ids: randomIds, attempts: attemptsOf(state) }), key };
}

async function app(t: TestContext, jobTokens: ReturnType<typeof createJobTokens>) {
  const server = Fastify();
  onCleanup(t, () => server.close());
  await server.register(async (scoped) => {
    scoped.addHook('onRequest', requireJobToken(jobTokens));
    scoped.get('/:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines/:timelineId', async (request) => {
      const job = jobTokenOf(request);
      return { jobId: job.jobId, record: job.jobRecordId };
    });
  });
  return (token: string | undefined, plan = planId, timeline = planId) =>
    server.inject({
      method: 'GET',
      url: `/00000000-0000-0000-0000-000000000000/_apis/distributedtask/hubs/actions/plans/${plan}/timelines/${timeline}`,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
}

describe('job access tokens', () => {
  it('round-trip the claims, derive the job GUID and carry the results scope', async () => {
    const { jobTokens } = await tokens();
    const token = await jobTokens.mintJobToken(claims, jobTokenTtlSeconds(360));
    const verified = await jobTokens.verifyJobToken(token);
    const jobGuid = jobIdFor(planId, { id: 21, attempt: 1 });
    assert.deepEqual({ ...verified, expiresAt: 0 }, { ...claims, scopes: [`Actions.Results:${planId}:${jobGuid}`], jobRecordId: jobGuid, expiresAt: 0 });
    assert.equal(verified.expiresAt, Date.UTC(2030, 0, 1) + (360 * 60 + 1800) * 1000);
    const payload = decodeJwt(token);
    assert.equal(payload['scp'], `Actions.Results:${planId}:${jobGuid}`, '@actions/artifact reads the ids from scp');
  });

  it('expire, and refuse other keys and other token kinds', async () => {
    const { jobTokens, clock } = await tokens();
    const token = await jobTokens.mintJobToken({ ...claims, scopes: ['Actions.GenericRead'] }, 60);
    assert.deepEqual((await jobTokens.verifyJobToken(token)).scopes, ['Actions.GenericRead']);
    clock.advance(61_000);
    await assert.rejects(jobTokens.verifyJobToken(token), { code: 'job_token_expired', status: 401 });
    const other = createJobTokens({ key: await loadSigningKey(localSharedKeys(createMemoryCredentialStore())), clock, ids: randomIds, attempts: attemptsOf({}) });
    await assert.rejects(jobTokens.verifyJobToken(await other.mintJobToken(claims, 60)), { code: 'job_token_invalid' });
    await assert.rejects(jobTokens.verifyJobToken('not.a.jwt'), { code: 'job_token_invalid' });
    await assert.rejects(jobTokens.mintJobToken(claims, 0), TypeError);
  });

  it('stop verifying when their job attempt is over', async () => {
    const state: { ended?: JobAttemptEndedError } = {};
    const { jobTokens } = await tokens(state);
    const token = await jobTokens.mintJobToken(claims, jobTokenTtlSeconds(360));
    await jobTokens.verifyJobToken(token);
    state.ended = new JobAttemptEndedError('finished', 'the job this token belongs to has finished (success)', claims);
    await assert.rejects(jobTokens.verifyJobToken(token), { code: 'job_token_expired', status: 401, message: /has finished/ });
  });

  it('open only the routes of their plan and timeline', async (t) => {
    const { jobTokens, clock } = await tokens();
    const call = await app(t, jobTokens);
    const token = await jobTokens.mintJobToken(claims, 600);

    const ok = await call(token);
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { jobId: 21, record: jobIdFor(planId, { id: 21, attempt: 1 }) });
    assert.equal((await call(token, planId.toUpperCase(), planId.toUpperCase())).statusCode, 200, 'GUIDs compare case-insensitively');

    const otherPlan = planIdFor({ id: 8, runAttempt: 1 });
    const refused = await call(token, otherPlan, otherPlan);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().typeKey, 'TaskOrchestrationPlanSecurityException');
    assert.equal((await call(token, planId, otherPlan)).statusCode, 403, 'another timeline');

    const anonymous = await call(undefined);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
    clock.advance(601_000);
    assert.equal((await call(token)).statusCode, 401, 'expired');
  });
});
