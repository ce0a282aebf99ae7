/**
 * Every real github.com job message of the shared corpus (shared/corpus/job-messages) decodes
 * to the worker's job model without loss: no member left unknown, every TemplateToken and every
 * PipelineContextData value re-encoding to the JSON it came from (github style, key order
 * aside), every step, variable, mask hint and endpoint carried over.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { encodeContextData, encodeTemplateToken, type JsonValue, type TemplateToken } from '../../core/protocol/index.js';
import { requireCorpus } from '../../test/support/corpus.js';
import { decodeJobMessage, type JobMessage } from './index.js';

const corpus = requireCorpus('job-messages');
const files = (corpus.dir === undefined ? [] : readdirSync(corpus.dir))
  .filter((name) => name.endsWith('.json') && !name.endsWith('_evidence.json'))
  .sort();

type Raw = Record<string, JsonValue>;

function load(name: string): Raw {
  return JSON.parse(readFileSync(new URL(name, corpus.dir), 'utf8')) as Raw;
}

function object(value: JsonValue | undefined): Raw {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), `an object: ${JSON.stringify(value)}`);
  return value as Raw;
}

/** A token member: absent or null in the message is absent in the model; otherwise it re-encodes to the same JSON. */
function sameToken(model: TemplateToken | undefined, raw: JsonValue | undefined, where: string): void {
  if (raw === undefined || raw === null) {
    assert.equal(model, undefined, `${where}: null stays absent`);
    return;
  }
  assert.ok(model !== undefined, `${where}: the token is kept`);
  assert.deepEqual(encodeTemplateToken(model, { style: 'github' }), raw, where);
}

function checkMessage(message: JobMessage, raw: Raw): void {
  assert.deepEqual(message.extra, {}, 'no top-level member is unknown to the model');
  assert.equal(message.messageType, raw['messageType']);
  assert.equal(message.mode, 'run-service');
  const plan = object(raw['plan']);
  assert.deepEqual(
    { planId: message.plan.planId, planType: message.plan.planType, version: message.plan.version, artifactUri: message.plan.artifactUri, artifactLocation: message.plan.artifactLocation },
    { planId: plan['planId'], planType: plan['planType'], version: plan['version'], artifactUri: plan['artifactUri'], artifactLocation: plan['artifactLocation'] },
  );
  const timeline = object(raw['timeline']);
  assert.deepEqual(message.timeline, { id: timeline['id'], changeId: timeline['changeId'], location: timeline['location'] });
  for (const key of ['jobId', 'jobDisplayName', 'jobName', 'requestId', 'lockedUntil', 'billingOwnerId'] as const) {
    assert.equal(message[key], raw[key], key);
  }
  assert.deepEqual(message.fileTable, raw['fileTable']);

  // Endpoints: every member of each, the connection found.
  const endpoints = object(raw['resources'])['endpoints'] as Raw[];
  assert.equal(message.endpoints.length, endpoints.length);
  endpoints.forEach((endpoint, i) => {
    const model = message.endpoints[i];
    assert.ok(model);
    const authorization = object(endpoint['authorization']);
    assert.deepEqual(
      { name: model.name, url: model.url, isShared: model.isShared, isReady: model.isReady, data: model.data, authorization: model.authorization },
      { name: endpoint['name'], url: endpoint['url'], isShared: endpoint['isShared'], isReady: endpoint['isReady'], data: endpoint['data'], authorization: { scheme: authorization['scheme'], parameters: authorization['parameters'] } },
    );
  });
  assert.equal(message.systemConnection.name, 'SystemVssConnection');

  // Variables and mask hints.
  const variables = object(raw['variables']);
  assert.equal(message.variables.size, Object.keys(variables).length);
  for (const [name, value] of Object.entries(variables)) {
    const v = object(value);
    assert.deepEqual(message.variables.get(name), { value: v['value'], isSecret: v['isSecret'] === true }, name);
  }
  assert.deepEqual(message.mask, raw['mask']);

  // Context data: each value re-encodes to the JSON it came from.
  const contextData = object(raw['contextData']);
  assert.deepEqual([...message.contextData.keys()], Object.keys(contextData));
  for (const [name, value] of Object.entries(contextData)) {
    assert.deepEqual(encodeContextData(message.contextData.get(name) ?? null, { style: 'github' }), value, `contextData.${name}`);
  }

  // Job-level tokens.
  const tokens = (key: string) => (raw[key] as JsonValue[] | undefined) ?? [];
  assert.equal(message.environmentVariables.length, tokens('environmentVariables').length);
  message.environmentVariables.forEach((token, i) => sameToken(token, tokens('environmentVariables')[i], `environmentVariables[${i}]`));
  assert.equal(message.defaults.length, tokens('defaults').length);
  message.defaults.forEach((token, i) => sameToken(token, tokens('defaults')[i], `defaults[${i}]`));
  sameToken(message.jobOutputs, raw['jobOutputs'], 'jobOutputs');
  sameToken(message.jobContainer, raw['jobContainer'], 'jobContainer');
  sameToken(message.jobServiceContainers, raw['jobServiceContainers'], 'jobServiceContainers');
  sameToken(message.snapshot, raw['snapshot'], 'snapshot');
  const environment = raw['actionsEnvironment'];
  if (environment === undefined || environment === null) assert.equal(message.actionsEnvironment, undefined);
  else {
    assert.equal(message.actionsEnvironment?.name, object(environment)['name']);
    sameToken(message.actionsEnvironment?.url, object(environment)['url'], 'actionsEnvironment.url');
  }

  // Steps: every one, every member.
  const steps = raw['steps'] as Raw[];
  assert.equal(message.steps.length, steps.length);
  steps.forEach((step, i) => {
    const model = message.steps[i];
    assert.ok(model && model.kind === 'action', `steps[${i}] is an action step`);
    assert.deepEqual(model.extra, {}, `steps[${i}] has no unknown member`);
    assert.equal(model.id, step['id']);
    assert.equal(model.name, step['name']);
    assert.equal(model.contextName, step['contextName']);
    assert.equal(model.condition, step['condition']);
    for (const key of ['inputs', 'environment', 'displayNameToken', 'continueOnError', 'timeoutInMinutes'] as const) {
      sameToken(model[key], step[key], `steps[${i}].${key}`);
    }
    const reference = object(step['reference']);
    const expected =
      reference['type'] === 'script'
        ? { kind: 'script' }
        : reference['type'] === 'containerRegistry'
          ? { kind: 'container', image: reference['image'] }
          : { kind: 'repository', name: reference['name'] ?? '', ref: reference['ref'] ?? '', path: reference['path'] ?? '', repositoryType: reference['repositoryType'] ?? '' };
    assert.deepEqual(model.reference, expected, `steps[${i}].reference`);
  });
}

describe('the worker decodes every captured github.com job message without loss', { skip: corpus.skip }, () => {
  it('finds the nine captured messages', () => {
    assert.equal(files.length, 9, files.join(', '));
  });
  for (const file of files) {
    it(file, () => {
      const raw = load(file);
      checkMessage(decodeJobMessage(raw), raw);
    });
  }

  it('covers every reference kind and token kind the corpus holds', () => {
    const kinds = new Set<string>();
    for (const file of files) for (const step of decodeJobMessage(load(file)).steps) if (step.kind === 'action') kinds.add(step.reference.kind);
    assert.deepEqual([...kinds].sort(), ['container', 'repository', 'script']);
  });

  it('refuses what the runner cannot run, saying where', () => {
    const raw = load(files[0] ?? '');
    assert.throws(() => decodeJobMessage({ ...raw, resources: { endpoints: [] } }), /no SystemVssConnection/);
    const contextData = { ...object(raw['contextData']) };
    delete contextData['github'];
    assert.throws(() => decodeJobMessage({ ...raw, contextData }), /github context is missing/);
    assert.throws(() => decodeJobMessage({ ...raw, jobOutputs: { type: 42 } }), /\$\.jobOutputs\.type/);
  });

  it('reads a legacy message (the server reads member names in any case)', () => {
    const raw = load(files[0] ?? '');
    const legacy = decodeJobMessage({ ...raw, messageType: 'PipelineAgentJobRequest', JOBID: raw['jobId'], jobId: undefined });
    assert.equal(legacy.mode, 'legacy');
    assert.equal(legacy.jobId, raw['jobId']);
  });
});
