import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runnerHost } from './runner-host.js';
import { expandRoute, locationsOf, send } from './vss-client.js';

/** The location ids the official runner resolves, with the route values it passes (§1.3). */
const RUNNER_CALLS: readonly { id: string; values: Record<string, string | number>; path: string }[] = [
  { id: 'a8c47e17-4d56-4a56-92bb-de7ea7dc65be', values: {}, path: '_apis/distributedtask/pools' },
  { id: 'e298ef32-5878-4cab-993c-043836571f42', values: { poolId: 0 }, path: '_apis/distributedtask/pools/0/agents' },
  { id: 'e298ef32-5878-4cab-993c-043836571f42', values: { poolId: 1, agentId: 7 }, path: '_apis/distributedtask/pools/1/agents/7' },
  { id: '134e239e-2df3-4794-a6f6-24f1f19ec8dc', values: { poolId: 1 }, path: '_apis/distributedtask/pools/1/sessions' },
  { id: 'c3a054f6-7a8a-49c0-944e-3a8e5d7adfd7', values: { poolId: 1, messageId: 5 }, path: '_apis/distributedtask/pools/1/messages/5' },
  { id: 'fc825784-c92a-4299-9221-998a02d1b54f', values: { poolId: 1, requestId: 9 }, path: '_apis/distributedtask/pools/1/jobrequests/9' },
  { id: '8ffcd551-079c-493a-9c02-54346299d144', values: { packageType: 'agent', platform: 'linux-x64' }, path: '_apis/distributedtask/packages/agent/linux-x64' },
  { id: '8cc1b02b-ae49-4516-b5ad-4f9b29967c30', values: { poolId: 1, agentId: 7 }, path: '_apis/distributedtask/pools/1/agents/7/updates' },
  { id: '13b5d709-74aa-470b-a8e9-bf9f3ded3f18', values: { agentId: 7, configType: 'runner' }, path: '_apis/distributedtask/agents/7/runnerconfigrefresh/runner' },
  { id: '25adab70-1379-4186-be8e-b643061ebe3a', values: { messageId: 'm1' }, path: '_apis/distributedtask/runnermessages/m1' },
  { id: '83597576-cc2c-453c-bea6-2882ae6a1653', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p', timelineId: 't' }, path: 's/_apis/distributedtask/hubs/build/plans/p/timelines/t' },
  { id: '8893bc5b-35b2-4be7-83cb-99e683551db4', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p', timelineId: 't' }, path: 's/_apis/distributedtask/hubs/build/plans/p/timelines/t/records' },
  { id: '858983e4-19bd-4c5e-864c-507b59b58b12', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p', timelineId: 't', recordId: 'r' }, path: 's/_apis/distributedtask/hubs/build/plans/p/timelines/t/records/r/feed' },
  { id: '46f5667d-263a-4684-91b1-dff7fdcf64e2', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p' }, path: 's/_apis/distributedtask/hubs/build/plans/p/logs' },
  { id: '7898f959-9cdf-4096-b29e-7f293031629e', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p', timelineId: 't', recordId: 'r', type: 'DistributedTask.Core.Summary', name: 'n' }, path: 's/_apis/distributedtask/hubs/build/plans/p/timelines/t/records/r/attachments/DistributedTask.Core.Summary/n' },
  { id: '557624af-b29e-4c20-8ab0-0399d2204f3f', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p' }, path: 's/_apis/distributedtask/hubs/build/plans/p/events' },
  { id: '27d7f831-88c1-4719-8ca1-6a061dad90eb', values: { scopeIdentifier: 's', hubName: 'build', planId: 'p' }, path: 's/_apis/distributedtask/hubs/build/plans/p/actiondownloadinfo' },
];

describe('connectionData (location service)', () => {
  it('is anonymous JSON with 30 service definitions and every location the runner resolves', async (t) => {
    const server = await runnerHost(t);
    const result = await send([], 'GET', `${server.baseUrl}/_apis/connectionData?connectOptions=1&lastChangeId=-1&lastChangeId64=-1`);
    assert.equal(result.status, 200);
    assert.match(result.headers.get('content-type') ?? '', /^application\/json/);
    const data = result.body as {
      instanceId: string;
      locationServiceData: { serviceOwner: string; lastChangeId: number; defaultAccessMappingMoniker: string; accessMappings: { moniker: string; accessPoint: string }[]; serviceDefinitions: Record<string, unknown>[] };
    };
    const service = data.locationServiceData;
    assert.equal(service.serviceDefinitions.length, 30);
    assert.equal(service.serviceOwner, '00000000-0000-0000-0000-000000000000', 'an on-premises owner: no location traversal');
    assert.deepEqual(service.accessMappings.map((m) => [m.moniker, m.accessPoint]), [['PublicAccessMapping', `${server.baseUrl}/`]]);
    assert.equal(service.defaultAccessMappingMoniker, 'PublicAccessMapping');
    const ids = service.serviceDefinitions.map((d) => String(d['identifier']));
    assert.equal(new Set(ids).size, 30, 'identifiers are unique');
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const locations = locationsOf(data);
    for (const call of RUNNER_CALLS) {
      const location = locations.get(call.id);
      assert.ok(location, `location ${call.id} is advertised with a resource version`);
      assert.equal(expandRoute(location.routeTemplate, call.values, location.area, location.resource), call.path, `route of ${location.resource}`);
    }
    const agents = service.serviceDefinitions.find((d) => d['identifier'] === 'e298ef32-5878-4cab-993c-043836571f42');
    assert.deepEqual(
      { area: agents?.['serviceType'], resource: agents?.['displayName'], resourceVersion: agents?.['resourceVersion'], min: agents?.['minVersion'], max: agents?.['maxVersion'], released: agents?.['releasedVersion'] },
      { area: 'distributedtask', resource: 'agents', resourceVersion: 2, min: '1.0', max: '12.0', released: '0.0' },
    );
  });

  it('answers a cached client (connectOptions=0) with the same document', async (t) => {
    const server = await runnerHost(t);
    const fresh = await send([], 'GET', `${server.baseUrl}/_apis/connectionData?connectOptions=1&lastChangeId=-1&lastChangeId64=-1`);
    const cached = await send([], 'GET', `${server.baseUrl}/_apis/connectionData?connectOptions=0&lastChangeId=1`, { headers: { authorization: 'Bearer anything' } });
    assert.equal(cached.status, 200);
    assert.deepEqual(cached.body, fresh.body);
  });
});
