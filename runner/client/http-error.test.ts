import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunnerHttpError } from './http-error.js';
import { expandRoute, rawUrl, vssUrl } from './vss-routes.js';

describe('RunnerHttpError', () => {
  it('reads the class of a VSS wrapped exception from typeKey or typeName, and its errorCode', () => {
    const byName = new RunnerHttpError('GET', 'https://h/x?sessionId=s', 403, {
      typeName: 'GitHub.DistributedTask.WebApi.AccessDeniedException, GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a',
      message: 'runner version deprecated',
      errorCode: 1,
    }, '');
    assert.equal(byName.vssException, 'AccessDeniedException');
    assert.equal(byName.vssErrorCode, 1);
    assert.equal(byName.message, 'GET https://h/x answered 403: runner version deprecated', 'no query string in the message');
    assert.ok(new RunnerHttpError('POST', 'https://h/', 409, { typeKey: 'TaskAgentSessionConflictException' }, '').isVss('TaskAgentSessionConflictException'));
  });

  it('recognises broker and run-service bodies only by their exact source', () => {
    const broker = new RunnerHttpError('GET', 'https://h/', 409, { source: 'actions-broker-listener', errorKind: 'RunnerSessionInvalid', statusCode: 409, errorMessage: 'gone' }, '');
    assert.equal(broker.brokerErrorKind, 'RunnerSessionInvalid');
    assert.equal(new RunnerHttpError('GET', 'https://h/', 409, { source: 'other', errorKind: 'RunnerSessionInvalid' }, '').brokerErrorKind, undefined);
    const runService = new RunnerHttpError('POST', 'https://h/', 500, { source: 'actions-run-service', statusCode: 404, errorMessage: 'x' }, '');
    assert.equal(runService.runServiceStatus, 404, 'the body decides, not the status line');
  });
});

describe('URL rules (§0.6)', () => {
  it('fills route templates and drops segments without a value', () => {
    assert.equal(expandRoute('_apis/{area}/pools/{poolId}/agents/{agentId}', { PoolId: 1 }, 'distributedtask', 'agents'), '_apis/distributedtask/pools/1/agents');
    assert.equal(vssUrl('https://h/tenant/', '_apis/x', { a: 'b' }), 'https://h/tenant/_apis/x?a=b');
  });

  it('resolves raw client paths against the base', () => {
    assert.equal(rawUrl('https://h/x/broker/', 'message', { sessionId: 's' }), 'https://h/x/broker/message?sessionId=s');
    assert.equal(rawUrl('https://h/x/broker', 'message'), 'https://h/x/broker/message', 'a missing trailing slash is added');
  });
});
