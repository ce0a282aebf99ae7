/**
 * Job model conformance: hand-written cases, each naming where its expected result comes from —
 * docs.github.com ("Reusing workflows" and its reference, "Workflow syntax", "Control the
 * concurrency of workflows and jobs", "Using jobs in a workflow", "Running variations of jobs"),
 * or the official runner and GitHub's parser where the docs are silent (actions/runner
 * `src/Sdk/WorkflowParser/Conversion/WorkflowTemplateConverter.cs`, `JobNameBuilder.cs`,
 * `ReusableWorkflowsLoader.cs`; job defaults from the runner's job message handling).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  expandJob,
  loadWorkflow,
  localEvent,
  planWorkflow,
  stages,
  type CallPlan,
  type ConcurrencyPlan,
  type JobInstance,
  type LoadedWorkflowFile,
  type PlanEvent,
  type PlannedJob,
  type WorkflowPlan,
  type WorkflowRef,
} from '../../core/workflow/index.js';
import type { CaseResult, ConformanceSuite } from './suite.js';

interface JobsCase {
  readonly id: string;
  readonly run: () => Promise<unknown>;
  readonly expected: unknown;
}

const FILE = '.github/workflows/ci.yml';
const SHA = 'a'.repeat(40);
const PUSH = localEvent({ repository: 'octo/app', ref: 'refs/heads/main', sha: SHA, actor: 'mona' });
const DISPATCH = localEvent({ name: 'workflow_dispatch', repository: 'octo/app', ref: 'refs/heads/main', sha: SHA, actor: 'mona' });

interface PlanSetup {
  /** Called workflows by path (`.github/workflows/lib.yml`). */
  readonly files?: Readonly<Record<string, string>>;
  readonly event?: PlanEvent;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly vars?: Readonly<Record<string, string>>;
  readonly secretNames?: readonly string[];
}

async function load(yaml: string, files: Readonly<Record<string, string>> = {}): Promise<Awaited<ReturnType<typeof loadWorkflow>>> {
  const loader = {
    read: (ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> =>
      Promise.resolve(files[ref.path] === undefined ? undefined : { name: ref.path, content: files[ref.path] as string }),
  };
  return loadWorkflow({ name: FILE, content: yaml }, { loader });
}

async function plan(yaml: string, setup: PlanSetup = {}): Promise<WorkflowPlan> {
  const loaded = await load(yaml, setup.files);
  if (loaded.errors.length > 0) throw new Error(loaded.errors.map((e) => e.githubMessage).join('; '));
  return planWorkflow(loaded, {
    event: setup.event ?? PUSH,
    ...(setup.inputs === undefined ? {} : { inputs: setup.inputs }),
    ...(setup.vars === undefined ? {} : { vars: setup.vars }),
    ...(setup.secretNames === undefined ? {} : { secretNames: setup.secretNames }),
  });
}

/** The messages of a workflow GitHub refuses to load. */
async function loadErrors(yaml: string, files: Readonly<Record<string, string>> = {}): Promise<string[]> {
  return (await load(yaml, files)).errors.map((e) => e.message);
}

const jobAt = (result: WorkflowPlan, key: string): PlannedJob | undefined => result.jobs.find((job) => job.key === key);
const names = (job: PlannedJob | undefined): string[] => job?.instances.map((instance) => instance.name) ?? [];
const messages = (result: WorkflowPlan): string[] => result.errors.map((error) => error.message);
const stagePaths = (result: WorkflowPlan): string[][] => stages(result).map((stage) => stage.map((job) => job.path));

/** A workflow with these jobs (indented for you). */
const wf = (jobs: string, head = 'on: push'): string => `${head}\njobs:\n${jobs.replace(/^/gm, '  ')}\n`;
/** A job running on ubuntu-latest with one step, plus `body` (job keys, unindented). */
const job = (key: string, body = ''): string =>
  `${key}:\n  runs-on: ubuntu-latest\n${body === '' ? '' : `${body.replace(/^/gm, '  ')}\n`}  steps: [{ run: echo }]`;
/** The plan of a workflow of these jobs. */
const planJobs = (jobs: readonly string[], setup?: PlanSetup): Promise<WorkflowPlan> => plan(wf(jobs.join('\n')), setup);
/** The instances of job `key` in a workflow of these jobs. */
const instancesOf = async (key: string, jobs: readonly string[], setup?: PlanSetup): Promise<readonly JobInstance[]> =>
  jobAt(await planJobs(jobs, setup), key)?.instances ?? [];
/** The workflow-level concurrency of a workflow with this head. */
const workflowConcurrency = async (head: string, setup?: PlanSetup): Promise<ConcurrencyPlan | undefined> =>
  (await plan(wf(job('a'), head), setup)).concurrency;

const LIB = `on:
  workflow_call:
    inputs:
      config-path: { type: string, required: true }
      verbose: { type: boolean }
      retries: { type: number }
      label: { type: string }
      level: { type: string, default: "\${{ vars.LEVEL }}" }
    secrets:
      personal_access_token: { required: true }
    outputs:
      firstword: { description: The first output string, value: "\${{ jobs.example_job.outputs.output1 }}" }
      secondword: { description: The second output string, value: "\${{ jobs.example_job.outputs.output2 }}" }
concurrency: lib-\${{ inputs.config-path }}
jobs:
  example_job:
    name: Generate output
    runs-on: ubuntu-\${{ inputs.config-path }}
    outputs: { output1: "\${{ steps.step1.outputs.firstword }}", output2: "\${{ steps.step2.outputs.secondword }}" }
    steps: [{ id: step1, run: echo }, { id: step2, run: echo }]
`;
const FILES = { '.github/workflows/lib.yml': LIB };
const PASS_ALL = 'with: { config-path: "24.04" }\nsecrets: { personal_access_token: "${{ secrets.token }}" }';
/** A job `call-workflow` calling lib.yml, plus `body`. */
const call = (body: string): string => `call-workflow:\n  uses: ./.github/workflows/lib.yml\n${body.replace(/^/gm, '  ')}`;
/** The plan of a workflow whose only job calls lib.yml. */
const planCall = (body: string, setup: PlanSetup = {}): Promise<WorkflowPlan> => plan(wf(call(body)), { files: FILES, ...setup });
/** What that job's first (or `index`th) instance calls. */
const callOf = async (body: string, setup: PlanSetup = {}, index = 0): Promise<CallPlan | undefined> =>
  jobAt(await planCall(body, setup), 'call-workflow')?.instances[index]?.call;

const reusableCases: JobsCase[] = [
  // "on.workflow_call.inputs": without a default, boolean false, number 0, string ""; a default may use vars.
  {
    id: 'reusable/inputs/typed-defaults',
    run: async () => (await callOf(PASS_ALL, { vars: { LEVEL: 'info' } }))?.inputs,
    expected: { 'config-path': '24.04', verbose: false, retries: 0, label: '', level: 'info' },
  },
  // "jobs.<job_id>.with": a value passed keeps its type; an expression is evaluated first.
  {
    id: 'reusable/inputs/with-expression',
    run: async () => (await callOf('with: { config-path: "${{ github.ref_name }}", verbose: true, retries: 2 }\nsecrets: inherit'))?.inputs,
    expected: { 'config-path': 'main', verbose: true, retries: 2, label: '', level: '' },
  },
  // GitHub's parser (ReusableWorkflowsLoader): a required input must be passed.
  {
    id: 'reusable/inputs/missing-required',
    run: () => loadErrors(wf(call('secrets: inherit')), FILES),
    expected: ['Input config-path is required, but not provided while calling.'],
  },
  // Same: an input the called workflow does not declare is refused.
  {
    id: 'reusable/inputs/undeclared',
    run: () => loadErrors(wf(call('with: { config-path: a, colour: red }\nsecrets: inherit')), FILES),
    expected: ['Invalid input, colour is not defined in the referenced workflow.'],
  },
  // Same: a literal of the wrong type fails the call ("Unexpected value").
  {
    id: 'reusable/inputs/literal-type',
    run: () => loadErrors(wf(call('with: { config-path: a, retries: many }\nsecrets: inherit')), FILES),
    expected: ["Unexpected value 'many'"],
  },
  // "on.workflow_call.inputs.<input_id>.type": the value must match; an expression is checked once evaluated.
  {
    id: 'reusable/inputs/evaluated-type',
    run: async () => messages(await planCall('with: { config-path: a, verbose: "${{ github.ref }}" }\nsecrets: inherit')),
    expected: ["Input verbose must be a boolean, got 'refs/heads/main'"],
  },
  // GitHub's parser: a required secret must be mapped (unless secrets: inherit).
  {
    id: 'reusable/secrets/missing-required',
    run: () => loadErrors(wf(call('with: { config-path: a }')), FILES),
    expected: ['Secret personal_access_token is required, but not provided while calling.'],
  },
  // "jobs.<job_id>.secrets.inherit": every secret of the caller passes; required ones are not checked.
  {
    id: 'reusable/secrets/inherit',
    run: async () => (await callOf('with: { config-path: a }\nsecrets: inherit', { secretNames: ['NPM_TOKEN', 'personal_access_token'] }))?.secrets,
    expected: { inherit: true, names: ['NPM_TOKEN', 'personal_access_token'] },
  },
  // "jobs.<job_id>.secrets.<secret_id>": only the secrets mapped reach the called workflow.
  {
    id: 'reusable/secrets/mapped',
    run: async () => {
      const called = await callOf(PASS_ALL, { secretNames: ['token', 'OTHER'] });
      return [called?.secrets.inherit, called?.secrets.names, called?.jobs[0]?.scope.secretNames];
    },
    expected: [false, ['personal_access_token'], ['personal_access_token']],
  },
  // "Using outputs from a reusable workflow": the caller's outputs are on.workflow_call.outputs.
  {
    id: 'reusable/outputs/mapping',
    run: async () => Object.entries((await callOf(PASS_ALL))?.outputs ?? {}).map(([name, token]) => [name, token.toString()]),
    expected: [
      ['firstword', '${{ jobs.example_job.outputs.output1 }}'],
      ['secondword', '${{ jobs.example_job.outputs.output2 }}'],
    ],
  },
  // "Reusing workflows": the called jobs run under the caller; the UI names them `caller / callee`.
  {
    id: 'reusable/naming/caller-slash-callee',
    run: async () => (await callOf(`name: Call\n${PASS_ALL}`))?.jobs.map((j) => [j.path, j.instances[0]?.id, j.instances[0]?.name]),
    expected: [['call-workflow/example_job', 'call-workflow/example_job', 'Call / Generate output']],
  },
  // "Using a matrix strategy with a reusable workflow": one call per combination.
  {
    id: 'reusable/matrix/one-call-per-combination',
    run: async () => {
      const result = await planCall('strategy: { matrix: { target: [dev, stage] } }\nwith: { config-path: "${{ matrix.target }}" }\nsecrets: inherit');
      return jobAt(result, 'call-workflow')?.instances.map((instance) => {
        const called = instance.call?.jobs[0]?.instances[0];
        return [instance.id, called?.name, called?.runsOn?.labels];
      });
    },
    expected: [
      ['call-workflow[0]', 'call-workflow (dev) / Generate output', ['ubuntu-dev']],
      ['call-workflow[1]', 'call-workflow (stage) / Generate output', ['ubuntu-stage']],
    ],
  },
  // "Reusing workflows → Limitations": the caller's workflow-level env is not propagated.
  {
    id: 'reusable/env/not-propagated',
    run: async () => {
      const result = await plan(wf(call(PASS_ALL), 'on: push\nenv: { CALLER: "1" }'), { files: FILES });
      return [result.jobs[0]?.scope.env.length, jobAt(result, 'call-workflow')?.instances[0]?.call?.jobs[0]?.instances[0]?.env.length];
    },
    expected: [1, 0],
  },
  // "Contexts reference → github context": in a called workflow it is the caller's.
  {
    id: 'reusable/github-context/is-the-callers',
    run: async () => {
      const lib = LIB.replace('runs-on: ubuntu-${{ inputs.config-path }}', 'runs-on: ${{ github.event_name }}-${{ github.workflow }}');
      const result = await plan(wf(call(PASS_ALL), 'name: Caller\non: push'), { files: { '.github/workflows/lib.yml': lib } });
      return jobAt(result, 'call-workflow')?.instances[0]?.call?.jobs[0]?.instances[0]?.runsOn;
    },
    expected: { labels: ['push-Caller'] },
  },
  // "Nesting reusable workflows": a called workflow may call another; names and ids chain.
  {
    id: 'reusable/nesting/two-levels',
    run: async () => {
      const middle = 'on: workflow_call\njobs:\n  inner:\n    uses: ./.github/workflows/lib.yml\n    with: { config-path: x }\n    secrets: inherit\n';
      const files = { ...FILES, '.github/workflows/middle.yml': middle };
      const result = await plan(wf('outer:\n  uses: ./.github/workflows/middle.yml\n  secrets: inherit'), { files });
      const inner = jobAt(result, 'outer')?.instances[0]?.call?.jobs[0]?.instances[0]?.call;
      return inner?.jobs.map((j) => [j.instances[0]?.id, j.instances[0]?.name]);
    },
    expected: [['outer/inner/example_job', 'outer / inner / Generate output']],
  },
];

const concurrencyCases: JobsCase[] = [
  // "concurrency": a string is the group; cancel-in-progress defaults to false.
  {
    id: 'concurrency/workflow/string',
    run: () => workflowConcurrency('on: push\nconcurrency: staging_environment'),
    expected: { group: 'staging_environment', key: 'staging_environment', cancelInProgress: false, queue: 'single' },
  },
  // "Example: Using concurrency to cancel any in-progress job or run".
  {
    id: 'concurrency/workflow/group-and-cancel',
    run: () => workflowConcurrency('name: CI\non: push\nconcurrency:\n  group: ${{ github.workflow }}-${{ github.ref }}\n  cancel-in-progress: true'),
    expected: { group: 'CI-refs/heads/main', key: 'ci-refs/heads/main', cancelInProgress: true, queue: 'single' },
  },
  // "Example: Using a fallback value": head_ref is empty on a push, so the run id (0 in a plan) is used.
  {
    id: 'concurrency/workflow/fallback-run-id',
    run: async () => (await workflowConcurrency('on: push\nconcurrency:\n  group: ${{ github.head_ref || github.run_id }}\n  cancel-in-progress: true'))?.group,
    expected: '0',
  },
  // "Example: Only cancel in-progress jobs on specific branches": a conditional cancel-in-progress.
  {
    id: 'concurrency/workflow/conditional-cancel',
    run: async () => {
      const head = "on: push\nconcurrency:\n  group: ${{ github.workflow }}-${{ github.ref }}\n  cancel-in-progress: ${{ !contains(github.ref, 'release/')}}";
      return (await workflowConcurrency(head))?.cancelInProgress;
    },
    expected: true,
  },
  // Workflow concurrency allows `inputs` (here a workflow_dispatch input).
  {
    id: 'concurrency/workflow/inputs',
    run: async () => {
      const head = 'on:\n  workflow_dispatch:\n    inputs: { env: { default: staging } }\nconcurrency: deploy-${{ inputs.env }}';
      return (await workflowConcurrency(head, { event: DISPATCH, inputs: { env: 'prod' } }))?.group;
    },
    expected: 'deploy-prod',
  },
  // "The concurrency group name is case insensitive": prod and Prod are the same group.
  {
    id: 'concurrency/case-insensitive-key',
    run: async () => (await planJobs([job('a', 'concurrency: Prod'), job('b', 'concurrency: prod')])).jobs.map((j) => j.instances[0]?.concurrency?.key),
    expected: ['prod', 'prod'],
  },
  // "jobs.<job_id>.concurrency" allows matrix: one group per combination.
  {
    id: 'concurrency/job/matrix',
    run: async () => {
      const deploy = job('deploy', 'strategy: { matrix: { region: [eu, us] } }\nconcurrency:\n  group: deploy-${{ matrix.region }}\n  cancel-in-progress: false');
      return (await instancesOf('deploy', [deploy])).map((instance) => instance.concurrency?.group);
    },
    expected: ['deploy-eu', 'deploy-us'],
  },
  // A group reading `needs` is evaluated when the needed jobs are done.
  {
    id: 'concurrency/job/needs-deferred',
    run: async () => {
      const b = jobAt(await planJobs([job('a', 'outputs: { env: x }'), job('b', 'needs: a\nconcurrency: deploy-${{ needs.a.outputs.env }}')]), 'b');
      const later = b === undefined ? undefined : expandJob(b.template, b.scope, { needs: { a: { result: 'success', outputs: { env: 'prod' } } } });
      return [b?.instances[0]?.concurrency, b?.instances[0]?.deferred, later?.instances[0]?.concurrency?.group];
    },
    expected: [undefined, [{ field: 'concurrency', waitingFor: ['needs'] }], 'deploy-prod'],
  },
  // The called workflow's own concurrency reads the inputs of the call.
  {
    id: 'concurrency/reusable/called-workflow-inputs',
    run: async () => (await callOf(PASS_ALL))?.concurrency?.group,
    expected: 'lib-24.04',
  },
  // WorkflowTemplateConverter.ConvertToConcurrency: an empty or too long group is refused.
  {
    id: 'concurrency/limits',
    run: async () => [
      messages(await plan(wf(job('a'), 'on: push\nconcurrency: ${{ vars.NONE }}'))),
      messages(await plan(wf(job('a'), `on: push\nconcurrency: ${'x'.repeat(401)}`))),
    ],
    expected: [['Concurrency group name cannot be empty'], ['Concurrency group name must be less than 400 characters']],
  },
];

const namingCases: JobsCase[] = [
  // "jobs.<job_id>.name": without a name the job id is shown.
  { id: 'naming/default-is-key', run: async () => names(jobAt(await planJobs([job('my_job')]), 'my_job')), expected: ['my_job'] },
  // JobNameBuilder: a literal name gets the combination's values in parentheses.
  {
    id: 'naming/literal-with-matrix',
    run: async () => (await instancesOf('test', [job('test', 'name: Test\nstrategy: { matrix: { os: [ubuntu-latest], node: [14, 16] } }')])).map((i) => i.name),
    expected: ['Test (ubuntu-latest, 14)', 'Test (ubuntu-latest, 16)'],
  },
  // A name with an expression is shown as evaluated, without the values appended.
  {
    id: 'naming/expression-with-matrix',
    run: async () => (await instancesOf('test', [job('test', 'name: Node ${{ matrix.node }}\nstrategy: { matrix: { node: [14, 16] } }')])).map((i) => i.name),
    expected: ['Node 14', 'Node 16'],
  },
  // JobNameBuilder: object values flatten depth first; values only an include added are not shown.
  {
    id: 'naming/objects-and-includes',
    run: async () => {
      const matrix = 'strategy:\n  matrix:\n    node: [{ version: 20, lts: true }]\n    include: [{ node: { version: 20, lts: true }, extra: x }, { experimental: true }]';
      return (await instancesOf('b', [job('b', matrix)])).map((i) => i.name);
    },
    expected: ['b (20, true)'],
  },
  // JobNameBuilder: names longer than 100 characters end in "...".
  {
    id: 'naming/long-names-cut',
    run: async () => (await instancesOf('b', [job('b', `strategy: { matrix: { v: [${'x'.repeat(120)}] } }`)])).map((i) => [i.name.length, i.name.endsWith('...')]),
    expected: [[100, true]],
  },
  // A name reading `needs` waits; the job id stands in until then.
  {
    id: 'naming/needs-deferred',
    run: async () => (await instancesOf('b', [job('a'), job('b', 'needs: a\nname: after ${{ needs.a.result }}')])).map((i) => [i.name, i.deferred]),
    expected: [['b', [{ field: 'name', waitingFor: ['needs'] }]]],
  },
  // Instance ids: the job id, with [strategy.job-index] for matrix jobs.
  {
    id: 'naming/instance-ids',
    run: async () => (await instancesOf('t', [job('t', 'strategy: { matrix: { v: [1, 2, 3] } }')])).map((i) => i.id),
    expected: ['t[0]', 't[1]', 't[2]'],
  },
];

const graphCases: JobsCase[] = [
  // "Defining prerequisite jobs": job2 needs job1, job3 needs both.
  {
    id: 'needs/docs-example',
    run: async () => stagePaths(await planJobs([job('job1'), job('job2', 'needs: job1'), job('job3', 'needs: [job1, job2]')])),
    expected: [['job1'], ['job2'], ['job3']],
  },
  // "Example: Not requiring successful dependent jobs": `if: always()` does not change the order.
  {
    id: 'needs/always',
    run: async () => stagePaths(await planJobs([job('job1'), job('job2', 'needs: job1'), job('job3', 'needs: [job1, job2]\nif: ${{ always() }}')])),
    expected: [['job1'], ['job2'], ['job3']],
  },
  // GitHub's parser reports unknown jobs and cycles in `needs` (the plan never sees them).
  {
    id: 'needs/unknown-job',
    run: () => loadErrors(wf([job('a'), job('b', 'needs: c')].join('\n'))),
    expected: ["Job 'b' depends on unknown job 'c'."],
  },
  {
    id: 'needs/cycle',
    run: () => loadErrors(wf([job('a'), job('b', 'needs: c'), job('c', 'needs: b')].join('\n'))),
    expected: [
      "Job 'b' depends on job 'c' which creates a cycle in the dependency graph.",
      "Job 'c' depends on job 'b' which creates a cycle in the dependency graph.",
    ],
  },
  // A job needing a calling job waits for every job of the called workflow.
  {
    id: 'needs/caller-stands-for-its-jobs',
    run: async () => stagePaths(await planJobs([call(PASS_ALL), job('after', 'needs: call-workflow')], { files: FILES })),
    expected: [['call-workflow/example_job'], ['after']],
  },
  // A job needing a matrix job waits for all of its jobs.
  {
    id: 'needs/matrix-all-instances',
    run: async () => {
      const result = await planJobs([job('t', 'strategy: { matrix: { v: [1, 2] } }'), job('after', 'needs: t')]);
      return stages(result).map((stage) => stage.map((j) => `${j.path}×${j.instances.length}`));
    },
    expected: [['t×2'], ['after×1']],
  },
];

const fieldCases: JobsCase[] = [
  // "jobs.<job_id>.timeout-minutes": default 360; the runner's job cancel timeout default is 5.
  {
    id: 'fields/defaults',
    run: async () => (await instancesOf('a', [job('a')])).map((i) => [i.timeoutMinutes, i.cancelTimeoutMinutes, i.continueOnError]),
    expected: [[360, 5, false]],
  },
  // "Choosing runners in a group": group and labels.
  {
    id: 'fields/runs-on-group',
    run: async () => (await instancesOf('a', ['a:\n  runs-on:\n    group: ubuntu-runners\n    labels: ubuntu-20.04-16core\n  steps: [{ run: echo }]']))[0]?.runsOn,
    expected: { labels: ['ubuntu-20.04-16core'], group: 'ubuntu-runners' },
  },
  // "Running variations of jobs": a matrix generates at most 256 jobs.
  {
    id: 'fields/matrix-limit',
    run: async () => {
      const values = (n: number): string => Array.from({ length: n }, (_, i) => i).join(', ');
      return messages(await planJobs([job('big', `strategy: { matrix: { a: [${values(16)}], b: [${values(17)}] } }`)]));
    },
    expected: ["Strategy expansion exceeded 256 results for job 'big'"],
  },
];

const CASES: readonly JobsCase[] = [...reusableCases, ...concurrencyCases, ...namingCases, ...graphCases, ...fieldCases];

export const jobsSuite: ConformanceSuite = {
  name: 'jobs',
  async run(): Promise<readonly CaseResult[]> {
    const results: CaseResult[] = [];
    for (const entry of CASES) {
      try {
        const actual = await entry.run();
        results.push(
          isDeepStrictEqual(actual, entry.expected)
            ? { id: entry.id, passed: true }
            : { id: entry.id, passed: false, reason: `expected ${JSON.stringify(entry.expected)}, got ${JSON.stringify(actual)}` },
        );
      } catch (error) {
        results.push({ id: entry.id, passed: false, reason: `threw ${(error as Error).message}` });
      }
    }
    return results;
  },
};
