import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMPAT_RESOURCES, LOCATION_POINTERS, RUNNER_RESOURCES, SDK_RESOURCES, SERVICE_DEFINITIONS } from './service-definitions.js';

describe('service definitions', () => {
  it('are the spec\'s 30, with unique lower-case GUIDs (the runner refuses a duplicate location id)', () => {
    assert.equal(SERVICE_DEFINITIONS.length, 30);
    const ids = SERVICE_DEFINITIONS.map((d) => d.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual([RUNNER_RESOURCES.length, SDK_RESOURCES.length, COMPAT_RESOURCES.length, LOCATION_POINTERS.length], [16, 6, 5, 3]);
  });

  it("keep RUNNER-PROTOCOL.md §1.3's areas, resources and conventional templates for the runner's calls", () => {
    const table = Object.fromEntries(RUNNER_RESOURCES.map((d) => [d.id, `${d.area} ${d.resource} ${d.routeTemplate}`]));
    const plan = '{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}';
    assert.deepEqual(table, {
      'a8c47e17-4d56-4a56-92bb-de7ea7dc65be': 'distributedtask pools _apis/distributedtask/pools/{poolId}',
      'e298ef32-5878-4cab-993c-043836571f42': 'distributedtask agents _apis/distributedtask/pools/{poolId}/agents/{agentId}',
      '134e239e-2df3-4794-a6f6-24f1f19ec8dc': 'distributedtask sessions _apis/distributedtask/pools/{poolId}/sessions/{sessionId}',
      'c3a054f6-7a8a-49c0-944e-3a8e5d7adfd7': 'distributedtask messages _apis/distributedtask/pools/{poolId}/messages/{messageId}',
      'fc825784-c92a-4299-9221-998a02d1b54f': 'distributedtask jobrequests _apis/distributedtask/pools/{poolId}/jobrequests/{requestId}',
      '8ffcd551-079c-493a-9c02-54346299d144': 'distributedtask packages _apis/distributedtask/packages/{packageType}/{platform}/{version}',
      '8cc1b02b-ae49-4516-b5ad-4f9b29967c30': 'distributedtask updates _apis/distributedtask/pools/{poolId}/agents/{agentId}/updates',
      '13b5d709-74aa-470b-a8e9-bf9f3ded3f18': 'distributedtask runnerconfigrefresh _apis/{area}/agents/{agentId}/{resource}/{configType}',
      '25adab70-1379-4186-be8e-b643061ebe3a': 'distributedtask runnermessages _apis/{area}/{resource}/{messageId}',
      '83597576-cc2c-453c-bea6-2882ae6a1653': `distributedtask timelines ${plan}/timelines/{timelineId}`,
      '8893bc5b-35b2-4be7-83cb-99e683551db4': `distributedtask records ${plan}/timelines/{timelineId}/records`,
      '858983e4-19bd-4c5e-864c-507b59b58b12': `distributedtask feed ${plan}/timelines/{timelineId}/records/{recordId}/feed`,
      '46f5667d-263a-4684-91b1-dff7fdcf64e2': `distributedtask logs ${plan}/logs/{logId}`,
      '7898f959-9cdf-4096-b29e-7f293031629e': `distributedtask attachments ${plan}/timelines/{timelineId}/records/{recordId}/attachments/{type}/{name}`,
      '557624af-b29e-4c20-8ab0-0399d2204f3f': `distributedtask events ${plan}/events`,
      '27d7f831-88c1-4719-8ca1-6a061dad90eb': `distributedtask actiondownloadinfo ${plan}/actiondownloadinfo`,
    });
  });

  it('give every compat id the template of its current id, so one route serves both', () => {
    for (const compat of COMPAT_RESOURCES) {
      const current = RUNNER_RESOURCES.find((d) => d.area === compat.area && d.resource === compat.resource);
      assert.ok(current, `${compat.resource} has a current id`);
      assert.equal(compat.routeTemplate, current.routeTemplate);
    }
  });
});
