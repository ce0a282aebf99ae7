import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import {
  MessageTypes,
  agentRefreshBodySchema,
  brokerMigrationBodySchema,
  formatTimeSpan,
  jobCancellationBodySchema,
  jobMetadataBodySchema,
  messageTypeMatches,
  runnerJobRequestBodySchema,
  runnerRefreshBodySchema,
  runnerRefreshConfigBodySchema,
  runnerShutdownBodySchema,
} from './index.js';
import type { BrokerMigrationBody, JobCancellationBody, RunnerJobRequestBody } from './index.js';

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const valid = (schema: object, value: unknown) => ajv.validate(schema, value);

describe('message types', () => {
  it('are the runner\'s exact spellings', () => {
    assert.deepEqual(Object.values(MessageTypes), [
      'PipelineAgentJobRequest',
      'RunnerJobRequest',
      'JobCancellation',
      'AgentRefresh',
      'RunnerRefresh',
      'BrokerMigration',
      'ForceTokenRefresh',
      'RunnerShutdown',
      'RunnerRefreshConfig',
      'JobMetadataUpdate',
    ]);
  });

  it('match ignoring case, except the three the runner compares exactly', () => {
    assert.equal(messageTypeMatches('pipelineagentjobrequest', MessageTypes.PipelineAgentJobRequest), true);
    assert.equal(messageTypeMatches('RUNNERJOBREQUEST', MessageTypes.RunnerJobRequest), true);
    assert.equal(messageTypeMatches('jobCancellation', MessageTypes.JobCancellation), true);
    assert.equal(messageTypeMatches('ForceTokenRefresh', MessageTypes.ForceTokenRefresh), true);
    assert.equal(messageTypeMatches('forceTokenRefresh', MessageTypes.ForceTokenRefresh), false);
    assert.equal(messageTypeMatches('runnerRefreshConfig', MessageTypes.RunnerRefreshConfig), false);
    assert.equal(messageTypeMatches('brokerMigration', MessageTypes.BrokerMigration), false);
    assert.equal(messageTypeMatches('JobCancellations', MessageTypes.JobCancellation), false);
    assert.equal(messageTypeMatches(null, MessageTypes.JobCancellation), false);
    assert.equal(messageTypeMatches('A\u212Aentrefresh', MessageTypes.AgentRefresh), false, 'only ASCII letters fold');
  });
});

describe('message bodies', () => {
  it('JobCancellation: job GUID and a TimeSpan timeout', () => {
    const body: JobCancellationBody = { jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', timeout: formatTimeSpan(5 * 60_000) };
    assert.deepEqual(body, { jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', timeout: '00:05:00' });
    assert.ok(valid(jobCancellationBodySchema, body));
    assert.equal(valid(jobCancellationBodySchema, { jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', timeout: 300 }), false, 'seconds are not a TimeSpan');
    assert.equal(valid(jobCancellationBodySchema, { jobId: 'job-1', timeout: '00:05:00' }), false);
    assert.equal(valid(jobCancellationBodySchema, { jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589' }), false);
  });

  it('RunnerJobRequest: snake_case reference to the run service', () => {
    const body: RunnerJobRequestBody = {
      id: '1',
      runner_request_id: 'R1',
      should_acknowledge: true,
      run_service_url: 'https://ci.example.test/_run/',
      billing_owner_id: 'B',
    };
    assert.ok(valid(runnerJobRequestBodySchema, body));
    assert.ok(valid(runnerJobRequestBodySchema, { runner_request_id: 'R1', run_service_url: '' }), 'empty: fetch from runnermessages');
    assert.equal(valid(runnerJobRequestBodySchema, { runnerRequestId: 'R1' }), false, 'camelCase is not what the runner reads');
    assert.equal(valid(runnerJobRequestBodySchema, { runner_request_id: 'R1', run_service_url: 'https://ci.example.test/_run' }), false, 'needs the trailing slash');
  });

  it('BrokerMigration: the broker base URL', () => {
    const body: BrokerMigrationBody = { brokerBaseUrl: 'https://ci.example.test/_broker/' };
    assert.ok(valid(brokerMigrationBodySchema, body));
    assert.equal(valid(brokerMigrationBodySchema, { brokerBaseUrl: 'ci.example.test/_broker/' }), false);
    assert.equal(valid(brokerMigrationBodySchema, { BrokerBaseUrl: 'https://ci.example.test/_broker/' }), false);
  });

  it('AgentRefresh, RunnerRefresh, RunnerShutdown, RunnerRefreshConfig, JobMetadata', () => {
    assert.ok(valid(agentRefreshBodySchema, { agentId: 42, timeout: '01:00:00', targetVersion: '2.337.0' }));
    assert.equal(valid(agentRefreshBodySchema, { agentId: 42, timeout: '60' }), false);
    assert.ok(valid(runnerRefreshBodySchema, { target_version: '2.337.0', download_url: 'https://example.test/r.tar.gz', sha256_checksum: 'a'.repeat(64), os: 'linux-x64' }));
    assert.equal(valid(runnerRefreshBodySchema, { targetVersion: '2.337.0', downloadUrl: 'https://example.test/r.tar.gz' }), false);
    assert.ok(valid(runnerShutdownBodySchema, { reason: 'deprovisioned' }));
    assert.equal(valid(runnerShutdownBodySchema, { reason: 7 }), false);
    assert.ok(valid(runnerRefreshConfigBodySchema, { runnerQualifiedId: 'q', configType: 'runner', serviceType: 'pipelines', configRefreshURL: 'https://x/' }));
    assert.equal(valid(runnerRefreshConfigBodySchema, { runnerQualifiedId: 'q', configType: 'runner', serviceType: 'pipelines', configRefreshUrl: 'https://x/' }), false, 'URL is upper case');
    assert.ok(valid(jobMetadataBodySchema, { jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', postLinesFrequencyMillis: 500 }));
    assert.equal(valid(jobMetadataBodySchema, { postLinesFrequencyMillis: -1 }), false);
  });
});
