import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { basicExpressionToken, mappingToken, nullToken, sequenceToken, stringToken, type TemplateToken } from '../../core/protocol/index.js';
import { evaluateContainers, planContainers } from './container-plan.js';
import { containerContexts, runnerPathsOf } from './container-steps.js';
import type { EvaluationScope } from './templates/evaluate-fields.js';

const scope: EvaluationScope = {
  contexts: { github: { repository: 'acme/widgets' }, matrix: { redis: '7', image: '' }, secrets: { REG_PASS: 's3cret' }, env: {} },
  fileTable: ['.github/workflows/ci.yml'],
};
const map = (entries: Record<string, TemplateToken>) => mappingToken(Object.entries(entries).map(([key, value]) => ({ key: stringToken(key), value })));
const expr = (text: string) => basicExpressionToken(text);

describe('the job message container tokens', () => {
  it('evaluates the job container and services with their expressions', () => {
    const planned = evaluateContainers(
      {
        jobContainer: map({ image: stringToken('node:20'), env: map({ REPO: expr('github.repository') }), credentials: map({ username: stringToken('me'), password: expr('secrets.REG_PASS') }) }),
        jobServiceContainers: map({ redis: map({ image: expr("format('redis:{0}', matrix.redis)"), ports: sequenceToken([stringToken('6379/tcp')]) })}),
      },
      scope,
    );
    assert.deepEqual(planned?.job, { image: 'node:20', options: '', env: { REPO: 'acme/widgets' }, ports: [], volumes: [], credentials: { username: 'me', password: 's3cret' } });
    assert.deepEqual([...(planned?.services.entries() ?? [])], [['redis', { image: 'redis:7', options: '', env: {}, ports: ['6379/tcp'], volumes: [] }]]);
  });

  it('answers no plan for null tokens or a blanked-out image', () => {
    assert.equal(evaluateContainers({ jobContainer: nullToken(), jobServiceContainers: nullToken() }, scope), undefined);
    assert.equal(evaluateContainers({ jobContainer: expr('matrix.image') }, scope), undefined);
  });

  it('needs Linux and an engine on PATH, naming both engines when neither is there', () => {
    const definitions = { services: new Map([['redis', { image: 'redis', options: '', env: {}, ports: [], volumes: [] }]]) };
    assert.throws(() => planContainers(definitions, 'darwin', ''), /Container operations are only supported on Linux runners/);
    const empty = mkdtempSync(join(tmpdir(), 'svc-no-engine-'));
    const withPodman = mkdtempSync(join(tmpdir(), 'svc-podman-'));
    try {
      assert.throws(() => planContainers(definitions, 'linux', empty), /This job runs service containers \(jobs\.<job_id>\.services: redis\): it needs a container engine, but neither 'docker' nor 'podman' was found on PATH/);
      writeFileSync(join(withPodman, 'podman'), '#!/bin/sh\n');
      chmodSync(join(withPodman, 'podman'), 0o755);
      assert.deepEqual(planContainers(definitions, 'linux', `${empty}:${withPodman}`).engine, { name: 'podman', program: join(withPodman, 'podman') });
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(withPodman, { recursive: true, force: true });
    }
  });
});

describe('the job context of started containers', () => {
  it('fills job.container and job.services.<name> (id, network, ports)', () => {
    const contexts = containerContexts({
      network: 'github_network_1',
      containers: [
        { name: 'job_node20_x', image: 'node:20', id: 'c1', ports: {}, path: '/usr/bin' },
        { service: 'redis', name: 'redis_redis7_y', image: 'redis:7', id: 'c2', ports: { '6379': '32768' }, path: '' },
      ],
    });
    assert.deepEqual(contexts, {
      container: { id: 'c1', network: 'github_network_1' },
      services: { redis: { id: 'c2', network: 'github_network_1', ports: { '6379': '32768' } } },
    });
  });

  it('places externals beside _work', () => {
    const directories = { work: '/r/_work', temp: '/r/_work/_temp', actions: '/r/_work/_actions', tools: '/r/_work/_tool', workspace: '/r/_work/w/w', runnerWorkspace: '/r/_work/w', fileCommands: '/r/_work/_temp/_runner_file_commands' };
    assert.equal(runnerPathsOf({ directories }).externals, '/r/externals');
  });
});
