import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import {
  BROKER_ERROR_STATUS,
  BrokerErrorKinds,
  acknowledgeQuerySchema,
  acknowledgeRequestSchema,
  acquireJobRequestSchema,
  brokerError,
  brokerErrorSchema,
  completeJobRequestSchema,
  isJobRequestFinish,
  jobRequestQuerySchema,
  jobRequestRenewalResponseSchema,
  jobRequestUpdateSchema,
  renewJobRequestSchema,
  renewJobResponseSchema,
  runServiceError,
  runServiceErrorSchema,
  taskAgentJobRequestSchema,
} from './index.js';
import type { AcquireJobRequest, CompleteJobRequest, JobRequestFinish, JobRequestRenewal, RenewJobRequest, TaskAgentJobRequest } from './index.js';

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const valid = (schema: object, value: unknown) => ajv.validate(schema, value);
const PLAN = 'd0ab717e-3242-433d-99af-c143d1ad0fe1';
const JOB = 'af60f1ed-e283-516c-8d88-01cc3ee1c589';

describe('broker shapes', () => {
  it('acknowledge body and query', () => {
    assert.ok(valid(acknowledgeRequestSchema, { runnerRequestId: 'R1' }));
    assert.equal(valid(acknowledgeRequestSchema, { runner_request_id: 'R1' }), false);
    assert.ok(valid(acknowledgeQuerySchema, { sessionId: PLAN, status: 'Online', runnerVersion: '2.337.0', os: 'Linux', architecture: 'X64' }));
    assert.equal(valid(acknowledgeQuerySchema, { status: 'Online' }), false);
  });

  it('error bodies carry the exact source and kind the runner compares', () => {
    assert.deepEqual(brokerError('RunnerSessionInvalid', 'session expired'), {
      source: 'actions-broker-listener',
      errorKind: 'RunnerSessionInvalid',
      statusCode: 409,
      errorMessage: 'session expired',
    });
    assert.deepEqual(Object.values(BrokerErrorKinds).sort(), ['AcknowledgeJobNotFound', 'HostedRunnerDeprovisioned', 'RunnerNotFound', 'RunnerSessionInvalid', 'RunnerVersionTooOld']);
    for (const kind of Object.values(BrokerErrorKinds)) {
      const body = brokerError(kind, 'm');
      assert.ok(valid(brokerErrorSchema, body), kind);
      assert.equal(body.statusCode, BROKER_ERROR_STATUS[kind]);
      assert.notEqual(body.statusCode, 401, 'a 401 means "refresh the token" to the raw client');
    }
    assert.equal(brokerError('RunnerNotFound', 'm', 410).statusCode, 410);
    assert.equal(valid(brokerErrorSchema, { ...brokerError('RunnerNotFound', 'm'), source: 'actions-broker' }), false);
    assert.equal(valid(brokerErrorSchema, { ...brokerError('RunnerNotFound', 'm'), errorKind: 'runnerNotFound' }), false);
  });
});

describe('run-service shapes', () => {
  it('acquirejob', () => {
    const body: AcquireJobRequest = { jobMessageId: 'R1', runnerOS: 'Linux', billingOwnerId: 'U_kgDOAAAAAA' };
    assert.ok(valid(acquireJobRequestSchema, body));
    assert.ok(valid(acquireJobRequestSchema, { jobMessageId: 'R1' }), 'empty members are omitted');
    assert.equal(valid(acquireJobRequestSchema, { job_message_id: 'R1' }), false);
  });

  it('renewjob request and response', () => {
    const body: RenewJobRequest = { planId: PLAN, jobId: JOB };
    assert.ok(valid(renewJobRequestSchema, body));
    assert.equal(valid(renewJobRequestSchema, { planId: PLAN }), false);
    assert.ok(valid(renewJobResponseSchema, { lockedUntil: '2026-08-21T10:20:00Z' }));
    assert.ok(valid(renewJobResponseSchema, { lockedUntil: '2026-08-21T10:20:00.1234567+00:00' }));
    assert.equal(valid(renewJobResponseSchema, {}), false, 'the runner dereferences lockedUntil');
    assert.equal(valid(renewJobResponseSchema, { lockedUntil: 1787300400 }), false);
  });

  it('completejob (RUNNER-PROTOCOL.md §4.8)', () => {
    const body: CompleteJobRequest = {
      planId: PLAN,
      jobId: JOB,
      conclusion: 'succeeded',
      outputs: { artifact: { value: 'artifact-68' }, token: { value: null, isSecret: true } },
      stepResults: [
        {
          external_id: '3eaa7409-bc89-4642-b916-394ccd6827df',
          number: 2,
          name: 'Prepare directories',
          type: 'run',
          status: 'completed',
          conclusion: 'succeeded',
          started_at: '2026-08-21T10:15:03.20Z',
          completed_at: '2026-08-21T10:15:03.51Z',
          annotations: [{ level: 'failure', message: 'boom', stepNumber: 2, startLine: 3 }],
          is_background: false,
        },
        { status: null, conclusion: null },
      ],
      annotations: [],
      telemetry: [{ message: 'm', type: 'General' }],
      environmentUrl: 'https://app.example.test',
      billingOwnerId: 'U_kgDOAAAAAA',
      infrastructureFailureCategory: null,
    };
    assert.ok(valid(completeJobRequestSchema, body), JSON.stringify(ajv.errors));
    assert.ok(valid(completeJobRequestSchema, { planId: PLAN, jobId: JOB, conclusion: 2 }), 'TaskResult as an integer');
    assert.equal(valid(completeJobRequestSchema, { planId: PLAN, jobId: JOB, conclusion: 'success' }), false);
    assert.equal(valid(completeJobRequestSchema, { planId: PLAN, jobId: JOB }), false);
    assert.equal(valid(completeJobRequestSchema, { ...body, outputs: { artifact: 'artifact-68' } }), false, 'outputs are {value}');
    assert.equal(valid(completeJobRequestSchema, { ...body, stepResults: [{ status: 'done' }] }), false);
  });

  it('error bodies: the body\'s statusCode decides, with the exact source', () => {
    assert.deepEqual(runServiceError(409, 'already acquired'), { source: 'actions-run-service', statusCode: 409, errorMessage: 'already acquired' });
    for (const code of [404, 409, 422]) assert.ok(valid(runServiceErrorSchema, runServiceError(code, 'm')));
    assert.equal(valid(runServiceErrorSchema, { source: 'actions-run-service', statusCode: 200, errorMessage: 'm' }), false);
  });
});

describe('legacy job request shapes', () => {
  const renewal: JobRequestRenewal = { requestId: 1001 };
  const finish: JobRequestFinish = { requestId: 1001, finishTime: '2026-08-21T10:18:41.52Z', result: 'succeeded' };

  it('the PATCH body is a renewal or a finish', () => {
    assert.ok(valid(jobRequestUpdateSchema, renewal));
    assert.ok(valid(jobRequestUpdateSchema, { ...renewal, data: {} }), 'the SDK may add members');
    assert.ok(valid(jobRequestUpdateSchema, finish));
    assert.equal(isJobRequestFinish(renewal), false);
    assert.equal(isJobRequestFinish(finish), true);
    assert.equal(valid(jobRequestUpdateSchema, {}), false);
    assert.equal(valid(jobRequestUpdateSchema, { ...finish, result: 'Success' }), false);
    assert.ok(valid(jobRequestQuerySchema, { lockToken: '00000000-0000-0000-0000-000000000000' }));
    assert.equal(valid(jobRequestQuerySchema, {}), false);
  });

  it('the renewal answer must carry lockedUntil', () => {
    const answer: TaskAgentJobRequest = { requestId: 1001, lockedUntil: '2026-08-21T10:20:00Z', reservedAgent: { id: 42, name: 'build-01' } };
    assert.ok(valid(jobRequestRenewalResponseSchema, answer));
    assert.ok(valid(taskAgentJobRequestSchema, { requestId: 1001, result: 'succeeded', finishTime: '2026-08-21T10:18:41.52Z' }));
    assert.equal(valid(jobRequestRenewalResponseSchema, { requestId: 1001 }), false);
    assert.equal(valid(jobRequestRenewalResponseSchema, { ...answer, reservedAgent: { name: 'build-01' } }), false);
  });
});
