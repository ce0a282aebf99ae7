/**
 * Template evaluation conformance: each group names the documentation section its expected
 * results come from (docs.github.com, "Contexts reference", "Expressions", "Metadata syntax
 * reference", "Workflow syntax"), or the official runner's source where the docs are silent
 * (actions/runner `src/Sdk/DTObjectTemplating/ObjectTemplating/TemplateUnraveler.cs`,
 * `TemplateEvaluator.cs`, `Resources/TemplateStrings`, `Runner.Worker/ActionManifestManager.cs`,
 * `Handlers/HandlerFactory.cs`); those cases say so.
 */
import { isDeepStrictEqual } from 'node:util';
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { SequenceToken } from '@actions/workflow-parser/templates/tokens/sequence-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import {
  allowedContextsFor,
  buildGithubContext,
  buildJobContext,
  buildNeedsContext,
  buildRunnerContext,
  buildStepsContext,
  buildStrategyContext,
  evaluateJobIf,
  evaluateStepIf,
  evaluateTemplate,
  evaluateTemplateValue,
  readTemplateTokens,
} from '../../core/workflow/templates/index.js';
import type { CaseResult, ConformanceSuite } from './suite.js';
import { actionCases } from './template-action-cases.js';
import type { TemplateCase } from './template-case.js';

const FILE = '.github/workflows/ci.yml';

/** The token at a dotted path (`jobs.build.steps.0.run`) of a workflow read by the parser's reader. */
function tokenAt(yaml: string, path: string): TemplateToken {
  const read = readTemplateTokens(yaml, { fileName: FILE });
  if (read.errors.length > 0 || read.token === undefined) throw new Error(read.errors.map((e) => e.text).join('; '));
  let token: TemplateToken | undefined = read.token;
  for (const segment of path.split('.')) {
    token = /^\d+$/.test(segment) ? (token as SequenceToken).get(Number(segment)) : (token as MappingToken).find(segment);
    if (token === undefined) throw new Error(`no ${segment} in ${path}`);
  }
  return token;
}

/** A job `build` around `body` (indented under it). */
const job = (body: string): string => `on: push\njobs:\n  build:\n${body.replace(/^/gm, '    ')}\n`;

// ---- Contexts reference → Context availability (the table, row by row) ----
// `docs` is the table's "Context" column, `functions` its "Special functions" column.
const AVAILABILITY: readonly (readonly [key: string, docs: string, functions?: string])[] = [
  ['run-name', 'github, inputs, vars'],
  ['concurrency', 'github, inputs, vars'],
  ['env', 'github, secrets, inputs, vars'],
  ['jobs.<job_id>.concurrency', 'github, needs, strategy, matrix, inputs, vars'],
  ['jobs.<job_id>.container', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.container.credentials', 'github, needs, strategy, matrix, env, vars, secrets, inputs'],
  // The table leaves out `steps` here; GitHub's parser (actions/runner
  // src/Sdk/WorkflowParser/workflow-v1.0.json, `container-env` → `string-runner-context`) allows it.
  ['jobs.<job_id>.container.env.<env_id>', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, inputs, steps'],
  ['jobs.<job_id>.container.image', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.continue-on-error', 'github, needs, strategy, vars, matrix, inputs'],
  ['jobs.<job_id>.defaults.run', 'github, needs, strategy, matrix, env, vars, inputs'],
  ['jobs.<job_id>.env', 'github, needs, strategy, matrix, vars, secrets, inputs'],
  ['jobs.<job_id>.environment', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.environment.url', 'github, needs, strategy, matrix, job, runner, env, vars, steps, inputs'],
  ['jobs.<job_id>.if', 'github, needs, vars, inputs', 'always, cancelled, success, failure'],
  ['jobs.<job_id>.name', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.outputs.<output_id>', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs'],
  ['jobs.<job_id>.runs-on', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.secrets.<secrets_id>', 'github, needs, strategy, matrix, secrets, inputs, vars'],
  ['jobs.<job_id>.services', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.services.<service_id>.credentials', 'github, needs, strategy, matrix, env, vars, secrets, inputs'],
  // Same difference as the container's env (`steps` allowed by the parser's schema).
  ['jobs.<job_id>.services.<service_id>.env.<env_id>', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, inputs, steps'],
  ['jobs.<job_id>.steps.continue-on-error', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.env', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.if', 'github, needs, strategy, matrix, job, runner, env, vars, steps, inputs', 'always, cancelled, success, failure, hashFiles'],
  ['jobs.<job_id>.steps.name', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.run', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.timeout-minutes', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.with', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.steps.working-directory', 'github, needs, strategy, matrix, job, runner, env, vars, secrets, steps, inputs', 'hashFiles'],
  ['jobs.<job_id>.strategy', 'github, needs, vars, inputs'],
  ['jobs.<job_id>.timeout-minutes', 'github, needs, strategy, matrix, vars, inputs'],
  ['jobs.<job_id>.with.<with_id>', 'github, needs, strategy, matrix, inputs, vars'],
  ['on.workflow_call.inputs.<inputs_id>.default', 'github, inputs, vars'],
  ['on.workflow_call.outputs.<output_id>.value', 'github, jobs, vars, inputs'],
];

const availabilityCases: TemplateCase[] = AVAILABILITY.map(([key, docs, functions]) => ({
  id: `context-availability/${key}`,
  run: () => {
    const entries = allowedContextsFor(key);
    const names = entries.filter((entry) => !entry.includes('(')).sort();
    const fns = entries.filter((entry) => entry.includes('(')).map((entry) => entry.slice(0, entry.indexOf('('))).sort();
    return { names, fns };
  },
  expected: { names: docs.split(', ').sort(), fns: functions === undefined ? [] : functions.split(', ').sort() },
}));

const matrix = { os: 'ubuntu-latest', node: 16 };
const LITERALS = job(
  [
    'runs-on: x',
    'env:',
    '  myNull: ${{ null }}',
    '  myBoolean: ${{ false }}',
    '  myIntegerNumber: ${{ 711 }}',
    '  myFloatNumber: ${{ -9.2 }}',
    '  myHexNumber: ${{ 0xff }}',
    '  myExponentialNumber: ${{ -2.99e-2 }}',
    '  myString: Mona the Octocat',
    "  myStringInBraces: ${{ 'It''s open source!' }}",
  ].join('\n'),
);
const FROM_JSON_TYPES = job(
  'runs-on: x\nsteps:\n  - continue-on-error: ${{ fromJSON(env.continue) }}\n    timeout-minutes: ${{ fromJSON(env.time) }}\n    run: echo ...',
);
const MATRIX_JSON = '{"include":[{"project":"foo","config":"Debug"},{"project":"bar","config":"release"}]}';

const evaluationCases: TemplateCase[] = [
  // "Expressions → Literals": the example's env, as the runner writes each value into a string.
  {
    id: 'expressions/literals',
    run: () => evaluateTemplateValue(tokenAt(LITERALS, 'jobs.build.env'), {}),
    expected: {
      myNull: '',
      myBoolean: 'false',
      myIntegerNumber: '711',
      myFloatNumber: '-9.2',
      myHexNumber: '255',
      myExponentialNumber: '-0.0299',
      myString: 'Mona the Octocat',
      myStringInBraces: "It's open source!",
    },
  },
  // "Expressions → fromJSON": "Example returning a JSON data type".
  {
    id: 'expressions/fromjson-data-types',
    run: () =>
      evaluateTemplateValue(tokenAt(FROM_JSON_TYPES, 'jobs.build.steps.0'), { env: { continue: 'true', time: '3' } }),
    expected: { 'continue-on-error': true, 'timeout-minutes': 3, run: 'echo ...' },
  },
  // "Expressions → fromJSON": "Example returning a JSON object" (a matrix from a job output).
  {
    id: 'expressions/fromjson-object',
    run: () => {
      const strategy = tokenAt(job('runs-on: x\nstrategy:\n  matrix: ${{ fromJSON(needs.job1.outputs.matrix) }}'), 'jobs.build.strategy');
      return evaluateTemplateValue(strategy, { needs: { job1: { outputs: { matrix: MATRIX_JSON } } } });
    },
    expected: { matrix: JSON.parse(MATRIX_JSON) as unknown },
  },
  // "Contexts reference → matrix context": `runs-on: ${{ matrix.os }}`.
  {
    id: 'contexts/matrix-runs-on',
    run: () => evaluateTemplateValue(tokenAt(job('runs-on: ${{ matrix.os }}'), 'jobs.build.runs-on'), { matrix }),
    expected: 'ubuntu-latest',
  },
  // "Contexts reference → strategy context": a name built from `strategy.job-index`.
  {
    id: 'contexts/strategy-job-index',
    run: () => {
      const name = tokenAt(job('runs-on: x\nsteps:\n  - run: echo\n    name: Build log for job ${{ strategy.job-index }}'), 'jobs.build.steps.0.name');
      return evaluateTemplateValue(name, { strategy: buildStrategyContext({ jobIndex: 3, jobTotal: 4 }) });
    },
    expected: 'Build log for job 3',
  },
  // "Contexts reference → env context": step env overrides job env in `env.mascot`.
  {
    id: 'contexts/env-mascot',
    run: () => {
      const run = tokenAt(job("runs-on: x\nsteps:\n  - run: echo 'Hi ${{ env.mascot }}'"), 'jobs.build.steps.0.run');
      return evaluateTemplateValue(run, { env: { mascot: 'Octocat' } });
    },
    expected: "echo 'Hi Octocat'",
  },
  // Runner (TemplateUnraveler): a sequence item yielding an array contributes its items.
  {
    id: 'runner/sequence-insertion',
    run: () => evaluateTemplateValue(tokenAt(job('runs-on: [a, "${{ fromJSON(\'[\\"b\\",\\"c\\"]\') }}"]'), 'jobs.build.runs-on'), {}),
    expected: ['a', 'b', 'c'],
  },
  // Runner (TemplateUnraveler, StartMappingInsertion): `${{ insert }}` merges a mapping.
  {
    id: 'runner/insert-mapping',
    run: () =>
      evaluateTemplateValue(tokenAt(job('runs-on: x\nenv:\n  A: a\n  ${{ insert }}: ${{ fromJSON(\'{"B":"b"}\') }}'), 'jobs.build.env'), {}),
    expected: { A: 'a', B: 'b' },
  },
  // Runner (TemplateStrings.ExpectedMapping).
  {
    id: 'runner/insert-needs-mapping',
    run: () =>
      evaluateTemplate(tokenAt(job("runs-on: x\nenv:\n  ${{ insert }}: ${{ 'x' }}"), 'jobs.build.env'), {}, { fileTable: [FILE] }),
    error: `The template is not valid. ${FILE} (Line: 6, Col: 22): Expected a mapping`,
  },
  // Runner (TemplateEvaluator, TemplateStrings.UnexpectedMappingStart): an object where a string goes.
  {
    id: 'runner/mapping-not-expected',
    run: () =>
      evaluateTemplate(tokenAt(job("runs-on: x\nenv:\n  A: ${{ fromJSON('{}') }}"), 'jobs.build.env'), {}, { fileTable: [FILE] }),
    error: `The template is not valid. ${FILE} (Line: 6, Col: 10): A mapping was not expected`,
  },
  // Runner (TemplateStrings.ValueAlreadyDefined), keys compared ignoring case.
  {
    id: 'runner/duplicate-key',
    run: () => {
      const env = tokenAt(job("runs-on: x\nenv:\n  A: a\n  ${{ insert }}: ${{ fromJSON('{\"a\":\"b\"}') }}"), 'jobs.build.env');
      return evaluateTemplate(env, {});
    },
    error: /: 'a' is already defined$/,
  },
  // Runner: an expression error is placed at its token, worded by the expression parser; a
  // step's `run` evaluated as if it were `runs-on` (where secrets are not available).
  {
    id: 'runner/unrecognized-named-value',
    run: () => {
      const run = tokenAt(job('runs-on: x\nsteps:\n  - run: ${{ secrets.X }}'), 'jobs.build.steps.0.run');
      return evaluateTemplate(run, { secrets: {} }, { field: 'jobs.<job_id>.runs-on', fileTable: [FILE] });
    },
    error:
      `The template is not valid. ${FILE} (Line: 6, Col: 14): ` +
      "Unrecognized named-value: 'secrets'. Located at position 1 within expression: secrets.X",
  },
  // Runner number format (G15) inside strings: 1E+20, not 100000000000000000000.
  {
    id: 'runner/number-format-in-string',
    run: () => {
      const env = tokenAt(job("runs-on: x\nenv:\n  A: v${{ fromJSON('1e20') }}-${{ fromJSON('0.30000000000000004') }}"), 'jobs.build.env');
      return evaluateTemplateValue(env, {});
    },
    expected: { A: 'v1E+20-0.3' },
  },
];

const github = { event_name: 'push', ref: 'refs/heads/main' };
const noNeeds = { needs: {} };

const conditionCases: TemplateCase[] = [
  // "Contexts reference → Determining when to use contexts": the prod-check job.
  {
    id: 'if/job-github-ref',
    run: () => evaluateJobIf("${{ github.ref == 'refs/heads/main' }}", { github }, noNeeds),
    expected: true,
  },
  // "Contexts reference → github context", example usage: a pull_request-only job on a push.
  {
    id: 'if/job-event-name',
    run: () => evaluateJobIf("${{ github.event_name == 'pull_request' }}", { github }, noNeeds),
    expected: false,
  },
  // "Expressions → Status check functions → success": a job runs only when its needs succeeded.
  {
    id: 'if/job-implicit-success',
    run: () => evaluateJobIf("github.ref == 'refs/heads/main'", { github }, { needs: { build: 'failure' } }),
    expected: false,
  },
  // "→ always": runs whatever happened before.
  { id: 'if/job-always', run: () => evaluateJobIf('${{ always() }}', {}, { needs: { build: 'failure' } }), expected: true },
  // "→ failure": for a job, true when any ancestor job fails.
  {
    id: 'if/job-failure',
    run: () => evaluateJobIf('${{ failure() }}', {}, { needs: { build: 'success', deploy: 'failure' } }),
    expected: true,
  },
  // "→ cancelled": true when the workflow was cancelled.
  { id: 'if/job-cancelled', run: () => evaluateJobIf('${{ cancelled() }}', {}, { needs: {}, cancelled: true }), expected: true },
  // "→ Example: failure with conditions" (steps).
  {
    id: 'if/step-failure-with-conditions',
    run: () =>
      evaluateStepIf("${{ failure() && steps.demo.conclusion == 'failure' }}", { steps: { demo: { conclusion: 'failure' } } }, {
        jobStatus: 'failure',
      }),
    expected: true,
  },
  // "→ success": a step after a failed one is skipped without a status function.
  {
    id: 'if/step-implicit-success',
    run: () => evaluateStepIf("github.event_name == 'push'", { github }, { jobStatus: 'failure' }),
    expected: false,
  },
  // "Metadata syntax → runs.steps[*].if": the backup step runs when a previous step of the action failed.
  {
    id: 'if/composite-failure',
    run: () => evaluateStepIf('${{ failure() }}', {}, { jobStatus: 'success', actionStatus: 'failure', schema: 'action' }),
    expected: true,
  },
  // Runner (WorkflowTemplateConverter.ConvertToIfCondition): a blank condition is success().
  {
    id: 'if/blank-is-success',
    run: () => [evaluateStepIf('  ', {}, { jobStatus: 'success' }), evaluateStepIf('', {}, { jobStatus: 'failure' })],
    expected: [true, false],
  },
  // Runner (template reader): `${{ x }} && y` is format('{0} && y', x), a non-empty string.
  {
    id: 'if/embedded-expression-is-a-string',
    run: () => evaluateJobIf(tokenAt(job('runs-on: x\nif: ${{ false }} && false'), 'jobs.build.if'), {}, noNeeds),
    expected: true,
  },
];

const PUSH = {
  ref: 'refs/heads/my_branch',
  after: 'c27d339ee6075c1f744c5d4b200f7901aad2c369',
  repository: { full_name: 'octocat/hello-world', id: 1, owner: { login: 'octocat', id: 2 }, default_branch: 'main' },
  sender: { login: 'octocat', id: 2 },
};
const RUN = { id: 1536140711, number: 314, attempt: 1 };

const contextCases: TemplateCase[] = [
  // "Contexts reference → Example contents of the github context" (the values it shows).
  {
    id: 'contexts/github-push-example',
    run: () => {
      const { event: _event, event_name, repository_id: _id, actor_id: _actor, ...rest } = buildGithubContext({
        event: { name: 'push', payload: PUSH },
        run: RUN,
        workflow: { name: 'Context testing', path: '.github/workflows/ctx.yml' },
      });
      return { event_name, ...rest };
    },
    expected: {
      event_name: 'push',
      ref: 'refs/heads/my_branch',
      ref_name: 'my_branch',
      ref_type: 'branch',
      ref_protected: false,
      sha: 'c27d339ee6075c1f744c5d4b200f7901aad2c369',
      base_ref: '',
      head_ref: '',
      repository: 'octocat/hello-world',
      repository_owner: 'octocat',
      repository_owner_id: '2',
      repositoryUrl: 'git://github.com/octocat/hello-world.git',
      actor: 'octocat',
      triggering_actor: 'octocat',
      run_id: '1536140711',
      run_number: '314',
      run_attempt: '1',
      retention_days: '90',
      workflow: 'Context testing',
      workflow_ref: 'octocat/hello-world/.github/workflows/ctx.yml@refs/heads/my_branch',
      workflow_sha: 'c27d339ee6075c1f744c5d4b200f7901aad2c369',
      server_url: 'https://github.com',
      api_url: 'https://api.github.com',
      graphql_url: 'https://api.github.com/graphql',
      secret_source: 'Actions',
    },
  },
  // "Events that trigger workflows → pull_request": GITHUB_REF is the PR merge branch.
  {
    id: 'contexts/github-pull-request-ref',
    run: () => {
      const pull_request = { number: 7, merge_commit_sha: 'abc', base: { ref: 'main' }, head: { ref: 'topic' } };
      const payload = { ...PUSH, pull_request };
      const g = buildGithubContext({ event: { name: 'pull_request', payload }, run: RUN, workflow: { path: 'w.yml' } });
      return [g.ref, g.sha, g.head_ref, g.base_ref];
    },
    expected: ['refs/pull/7/merge', 'abc', 'topic', 'main'],
  },
  // "→ Example contents of the steps context", and `continue-on-error`: outcome failure, conclusion success.
  {
    id: 'contexts/steps-example',
    run: () =>
      buildStepsContext([
        { id: 'checkout', outcome: 'success' },
        { id: 'generate_number', outcome: 'success', outputs: { random_number: '1' } },
        { id: 'flaky', outcome: 'failure', continueOnError: true },
      ]),
    expected: {
      checkout: { outputs: {}, outcome: 'success', conclusion: 'success' },
      generate_number: { outputs: { random_number: '1' }, outcome: 'success', conclusion: 'success' },
      flaky: { outputs: {}, outcome: 'failure', conclusion: 'success' },
    },
  },
  // "→ Example contents of the strategy context": the last job of four.
  {
    id: 'contexts/strategy-example',
    run: () => buildStrategyContext({ jobIndex: 3, jobTotal: 4 }),
    expected: { 'fail-fast': true, 'job-index': 3, 'job-total': 4, 'max-parallel': 4 },
  },
  // "→ Example contents of the needs context".
  {
    id: 'contexts/needs-example',
    run: () => buildNeedsContext({ build: { result: 'success', outputs: { build_id: '123456' } }, deploy: { result: 'failure' } }),
    expected: { build: { result: 'success', outputs: { build_id: '123456' } }, deploy: { result: 'failure', outputs: {} } },
  },
  // "→ job context": without containers the context only contains status.
  { id: 'contexts/job-status-only', run: () => buildJobContext({ status: 'success' }), expected: { status: 'success' } },
  // "→ Example contents of the runner context" (debug only when debug logging is on).
  {
    id: 'contexts/runner-example',
    run: () =>
      buildRunnerContext({
        name: 'GitHub Actions 2',
        os: 'Linux',
        arch: 'X64',
        temp: '/home/runner/work/_temp',
        toolCache: '/opt/hostedtoolcache',
        environment: 'github-hosted',
      }),
    expected: {
      name: 'GitHub Actions 2',
      os: 'Linux',
      arch: 'X64',
      temp: '/home/runner/work/_temp',
      tool_cache: '/opt/hostedtoolcache',
      environment: 'github-hosted',
    },
  },
];

const CASES: readonly TemplateCase[] = [
  ...availabilityCases,
  ...evaluationCases,
  ...conditionCases,
  ...contextCases,
  ...actionCases,
];

function check(testCase: TemplateCase): CaseResult {
  const { id, error: expectedError } = testCase;
  let value: unknown;
  try {
    value = testCase.run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const matches = typeof expectedError === 'string' ? message === expectedError : expectedError?.test(message) === true;
    return matches ? { id, passed: true } : { id, passed: false, reason: `threw: ${message}` };
  }
  if (expectedError !== undefined) return { id, passed: false, reason: `expected an error, got ${JSON.stringify(value)}` };
  if (isDeepStrictEqual(value, testCase.expected)) return { id, passed: true };
  return { id, passed: false, reason: `expected ${JSON.stringify(testCase.expected)}, got ${JSON.stringify(value)}` };
}

export const templatesSuite: ConformanceSuite = {
  name: 'templates',
  run: () => Promise.resolve(CASES.map(check)),
};
