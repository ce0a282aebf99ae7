import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../core/protocol/index.js';
import { testAssignment } from '../../../test/support/assignment-builder.js';
import { buildJobMessage } from './build-job-message.js';
import { jobSecrets, secretReadsOf } from './job-secrets.js';
import { JOB_TOKEN_SLOT, withJobToken } from './job-token-slot.js';
import { planFor } from './plan-for.js';
import { secretSlots, withSecretValues } from './secret-slots.js';

const STORED = { NPM: 'npm-value', DEPLOY_KEY: 'deploy-value', UNUSED: 'unused-value', MULTI: 'line 1\nline 2' };

const reads = (expression: string) => {
  const into = { all: false, names: new Set<string>() };
  secretReadsOf(expression, into);
  return { all: into.all, names: [...into.names].sort() };
};

test('reads secrets.NAME and secrets[\'NAME\'] ignoring case; a dynamic index or the whole context reads all', () => {
  assert.deepEqual(reads("format('{0} {1}', secrets.NPM, Secrets['deploy_key'])"), { all: false, names: ['deploy_key', 'npm'] });
  assert.deepEqual(reads('secrets[matrix.name]'), { all: true, names: [] });
  assert.deepEqual(reads('toJSON(secrets)'), { all: true, names: [] });
  // Text in a string literal and members of other contexts are not reads.
  assert.deepEqual(reads("format('secrets are {0}', inputs.secrets, github.secrets_source)"), { all: false, names: [] });
});

test('a job gets only the secrets its templates read (steps, job and workflow env); GITHUB_TOKEN stays the job token', async () => {
  const workflow = `on: push
env:
  FROM_WORKFLOW: \${{ secrets.MULTI }}
jobs:
  build:
    runs-on: x
    env: { KEY: "\${{ secrets.DEPLOY_KEY }}" }
    steps:
      - run: echo "\${{ secrets.npm }} \${{ secrets.GITHUB_TOKEN }}"
  all:
    runs-on: x
    steps:
      - run: echo '\${{ toJSON(secrets) }}'
`;
  const build = await planFor(testAssignment(workflow, { instanceId: 'build' }), { serverUrl: 'http://h' });
  assert.deepEqual(jobSecrets(build, { ...STORED, GITHUB_TOKEN: 'x' }), { NPM: 'npm-value', DEPLOY_KEY: 'deploy-value', MULTI: 'line 1\nline 2' });
  const all = await planFor(testAssignment(workflow, { instanceId: 'all' }), { serverUrl: 'http://h' });
  assert.deepEqual(jobSecrets(all, STORED), STORED);
});

const CALLED = `on:
  workflow_call:
    secrets:
      token: { required: true }
      other: { required: false }
jobs:
  use:
    runs-on: x
    steps: [{ run: "echo \${{ secrets.token }} \${{ secrets.other }} \${{ secrets.NPM }} \${{ secrets.UNUSED }}" }]
`;
const INHERITING = `on:
  workflow_call:
    secrets:
      token: { required: true }
jobs:
  deeper:
    uses: ./.github/workflows/called.yml
    secrets: inherit
`;

test("a called workflow's job gets exactly its caller's mapping, evaluated in the caller's secrets; inherit passes them all; nested calls chain", async () => {
  const caller = `on: push
jobs:
  mapped:
    strategy: { matrix: { suffix: [a] } }
    uses: ./.github/workflows/called.yml
    secrets:
      token: \${{ secrets.NPM }}-\${{ matrix.suffix }}
      other: \${{ secrets.GITHUB_TOKEN }}
  inherited:
    uses: ./.github/workflows/called.yml
    secrets: inherit
  nested:
    uses: ./.github/workflows/inheriting.yml
    secrets:
      token: \${{ secrets.DEPLOY_KEY }}
`;
  const files = { '.github/workflows/called.yml': CALLED, '.github/workflows/inheriting.yml': INHERITING };
  const plan = (instanceId: string) => planFor(testAssignment(caller, { instanceId, files }), { serverUrl: 'http://h' });

  const mapped = await plan('mapped[0]/use');
  // Only what the mapping names: NPM and UNUSED are not passed, however the called job reads them.
  assert.deepEqual(jobSecrets(mapped, STORED), { token: 'npm-value-a', other: JOB_TOKEN_SLOT });
  assert.deepEqual(jobSecrets(await plan('inherited/use'), STORED), { NPM: 'npm-value', UNUSED: 'unused-value' });
  assert.deepEqual(jobSecrets(await plan('nested/deeper/use'), STORED), { token: 'deploy-value' });
});

test('the message built with slots holds no secret value; filled at hand-out it carries each value, marked secret and masked', async () => {
  const workflow = `on: push
jobs:
  build:
    runs-on: x
    steps: [{ run: "echo \${{ secrets.MULTI }} \${{ secrets.NPM }}" }]
`;
  const assignment = testAssignment(workflow, { instanceId: 'build' });
  const plan = await planFor(assignment, { serverUrl: 'http://h' });
  const slots = secretSlots({ ...jobSecrets(plan, STORED), EMPTY: '' });
  const stored = buildJobMessage({ assignment, plan, serverUrls: { api: 'http://h/', publicUrl: 'http://h' }, accessToken: JOB_TOKEN_SLOT, secrets: slots.byName, vars: { REGION: 'eu' } });
  const text = JSON.stringify(stored);
  for (const value of ['npm-value', 'line 1']) assert.ok(!text.includes(value), value);

  const sent = withJobToken(withSecretValues(stored, slots.values), 'the-token');
  const variables = sent['variables'] as Record<string, JsonObject>;
  assert.deepEqual(variables['MULTI'], { value: 'line 1\nline 2', isSecret: true });
  assert.deepEqual(variables['NPM'], { value: 'npm-value', isSecret: true });
  assert.deepEqual(variables['EMPTY'], { value: '', isSecret: true });
  assert.deepEqual(variables['github_token'], { value: 'the-token', isSecret: true });
  const hints = (sent['mask'] as JsonObject[]).map((hint) => hint['value']);
  assert.ok(hints.includes('line\\ 1\\nline\\ 2') && hints.includes('npm-value') && hints.includes('the-token'), JSON.stringify(hints));
  assert.ok(!hints.includes(''), 'no empty mask hint');
  assert.ok(!JSON.stringify(sent).includes('filled-at-delivery') && !JSON.stringify(sent).includes(JOB_TOKEN_SLOT));
  // The job's vars (its environment's over the run's) are its vars context.
  assert.ok(JSON.stringify((sent['contextData'] as JsonObject)['vars']).includes('REGION'));
});
