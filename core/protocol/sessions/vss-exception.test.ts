import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { VSS_EXCEPTIONS, vssException, vssExceptionSchema, vssTypeName, type VssExceptionTypeKey } from './index.js';

const MAPPED = (name: string) =>
  `GitHub.DistributedTask.WebApi.${name}, GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a`;

describe('VSS wrapped exceptions', () => {
  it('produces the envelope of RUNNER-PROTOCOL.md §0.4 byte for byte', () => {
    const expected =
      '{"$id":"1","innerException":null,"message":"A session for this runner already exists.",' +
      '"typeName":"GitHub.DistributedTask.WebApi.TaskAgentSessionConflictException, GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a",' +
      '"typeKey":"TaskAgentSessionConflictException","errorCode":0,"eventId":3000}';
    assert.equal(JSON.stringify(vssException('TaskAgentSessionConflictException', 'A session for this runner already exists.')), expected);
  });

  it('uses the ExceptionMapping attribute strings of the runner SDK for the §2.9 exceptions', () => {
    for (const name of [
      'TaskAgentSessionConflictException',
      'TaskAgentSessionExpiredException',
      'TaskAgentNotFoundException',
      'TaskAgentPoolNotFoundException',
      'AccessDeniedException',
      'TaskAgentJobNotFoundException',
      'TaskAgentJobTokenExpiredException',
      'TaskAgentExistsException',
      'TaskOrchestrationJobNotFoundException',
      'TaskOrchestrationPlanSecurityException',
      'TaskOrchestrationPlanTerminatedException',
    ] as const) {
      assert.equal(vssTypeName(name), MAPPED(name), name);
      assert.equal(vssException(name, 'm').typeKey, name);
    }
  });

  it('names the Sdk assembly type where no attribute (or a shared one) exists', () => {
    assert.equal(vssTypeName('InvalidTaskAgentVersionException'), 'GitHub.DistributedTask.WebApi.InvalidTaskAgentVersionException, Sdk');
    assert.equal(vssTypeName('TaskAgentAccessTokenExpiredException'), 'GitHub.DistributedTask.WebApi.TaskAgentAccessTokenExpiredException, Sdk');
    assert.equal(vssTypeName('TimelineExistsException'), 'GitHub.DistributedTask.WebApi.TimelineExistsException, Sdk');
    assert.equal(vssTypeName('TaskOrchestrationPlanNotFoundException'), 'GitHub.DistributedTask.WebApi.TaskOrchestrationPlanNotFoundException, Sdk');
    const sdkTyped = Object.entries(VSS_EXCEPTIONS).filter(([, info]) => info.resolution === 'sdk-type').map(([name]) => name).sort();
    assert.deepEqual(sdkTyped, ['InvalidTaskAgentVersionException', 'TaskAgentAccessTokenExpiredException', 'TaskOrchestrationPlanNotFoundException', 'TimelineExistsException']);
  });

  it('carries errorCode (AccessDeniedException + 1 = runner version deprecated) and eventId', () => {
    const deprecated = vssException('AccessDeniedException', 'Runner version v2.300.0 is deprecated.', { errorCode: 1 });
    assert.equal(deprecated.errorCode, 1);
    assert.equal(deprecated.eventId, 3000);
    assert.equal(vssException('TaskAgentNotFoundException', 'gone', { eventId: 42 }).eventId, 42);
  });

  it('pairs every exception with an error status the runner\'s VSS client unwraps', () => {
    for (const [name, info] of Object.entries(VSS_EXCEPTIONS)) {
      assert.ok(info.status >= 400 && info.status < 600, name);
      assert.ok(info.status !== 401 && info.status !== 407, `${name}: 401/407 never reach the unwrapping`);
    }
    assert.equal(VSS_EXCEPTIONS.TaskAgentSessionConflictException.status, 409);
  });

  it('validates built envelopes and refuses ones without a type', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    for (const name of Object.keys(VSS_EXCEPTIONS) as VssExceptionTypeKey[]) {
      assert.ok(ajv.validate(vssExceptionSchema, vssException(name, 'x')), name);
    }
    assert.equal(ajv.validate(vssExceptionSchema, { message: 'x', typeKey: 'TaskAgentSessionConflictException', errorCode: 0, eventId: 3000 }), false);
    assert.equal(ajv.validate(vssExceptionSchema, { ...vssException('TaskAgentNotFoundException', 'x'), errorCode: '1' }), false);
  });
});
