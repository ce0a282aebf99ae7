/**
 * Action metadata cases of the templates suite, from docs.github.com "Metadata syntax
 * reference" and the runner's `ActionManifestManager.cs` / `HandlerFactory.cs` where the docs
 * are silent (those cases say so).
 */
import { parseActionManifest, type CompositeRuns, type DockerRuns, type NodeRuns } from '../../core/workflow/actions/index.js';
import { evaluateActionStageIf, evaluateTemplateValue } from '../../core/workflow/templates/index.js';
import type { TemplateCase } from './template-case.js';

const ACTION = 'octo/action/v1/action.yml';
const action = (...lines: string[]) => parseActionManifest(`${lines.join('\n')}\n`, { fileName: ACTION });
const runsOf = <T>(...lines: string[]): T => action(...lines).manifest?.runs as T;
const actionErrors = (...lines: string[]): string[] => action(...lines).errors.map((error) => error.text);

export const actionCases: readonly TemplateCase[] = [
  // "Metadata syntax → Example: Specifying inputs".
  {
    id: 'action/inputs-example',
    run: () =>
      action(
        'name: a',
        'inputs:',
        '  num-octocats:',
        "    description: 'Number of Octocats'",
        '    required: false',
        "    default: '1'",
        '  octocat-eye-color:',
        "    description: 'Eye color of the Octocats'",
        '    required: true',
        'runs: {using: node24, main: main.js}',
      ).manifest?.inputs.map((input) => [input.id, input.required, input.default?.toString()]),
    expected: [
      ['num-octocats', false, '1'],
      ['octocat-eye-color', true, undefined],
    ],
  },
  // "→ Example: Declaring outputs for composite actions": the value comes from the step's output.
  {
    id: 'action/composite-outputs-example',
    run: () => {
      const value = action(
        'name: a',
        'outputs:',
        '  random-number:',
        '    description: "Random number"',
        '    value: ${{ steps.random-number-generator.outputs.random-id }}',
        'runs:',
        '  using: "composite"',
        '  steps:',
        '    - id: random-number-generator',
        '      run: echo "random-id=$(echo $RANDOM)" >> $GITHUB_OUTPUT',
        '      shell: bash',
      ).manifest?.outputs[0]?.value;
      return value && evaluateTemplateValue(value, { steps: { 'random-number-generator': { outputs: { 'random-id': '42' } } } });
    },
    expected: '42',
  },
  // "→ runs.pre / runs.post": pre-if and post-if default to always().
  {
    id: 'action/pre-post-example',
    run: () => runsOf<NodeRuns>('name: a', 'runs:', "  using: 'node24'", "  pre: 'setup.js'", "  main: 'index.js'", "  post: 'cleanup.js'"),
    expected: { using: 'node24', runtime: 'node24', main: 'index.js', pre: 'setup.js', preIf: 'always()', post: 'cleanup.js', postIf: 'always()' },
  },
  // "→ runs.pre-if / runs.post-if": unset means always(); status functions read the job's status.
  {
    id: 'action/stage-if',
    run: () => [
      evaluateActionStageIf(undefined, {}, { jobStatus: 'failure' }),
      evaluateActionStageIf("runner.os == 'linux'", { runner: { os: 'Linux' } }, { jobStatus: 'success' }),
      evaluateActionStageIf('failure()', {}, { jobStatus: 'failure' }),
    ],
    expected: [true, true, true],
  },
  // Runner (HandlerFactory): node12 and node16 actions run on node20.
  {
    id: 'action/node16-runs-on-node20',
    run: () => runsOf<NodeRuns>('name: a', 'runs: {using: node16, main: i.js}').runtime,
    expected: 'node20',
  },
  // Runner (ActionManifestManager): other runtimes are refused with its message.
  {
    id: 'action/unsupported-using',
    run: () => actionErrors('name: a', 'runs:', '  using: node10', '  main: i.js'),
    expected: [`${ACTION} (Line: 3, Col: 10): 'using: node10' is not supported, use 'docker', 'node12', 'node16', 'node20' or 'node24' instead.`],
  },
  // "→ Example: Using a Dockerfile in your repository" / "Example: Using public Docker registry container".
  {
    id: 'action/docker-images',
    run: () =>
      ["'Dockerfile'", "'docker://debian:stretch-slim'"].map(
        (image) => runsOf<DockerRuns>('name: a', 'runs:', "  using: 'docker'", `  image: ${image}`).source,
      ),
    expected: [
      { kind: 'dockerfile', path: 'Dockerfile' },
      { kind: 'registry', image: 'debian:stretch-slim' },
    ],
  },
  // "→ Example: Defining arguments for the Docker container".
  {
    id: 'action/docker-args-example',
    run: () => {
      const { args } = runsOf<DockerRuns>(
        'name: a',
        'runs:',
        "  using: 'docker'",
        "  image: 'Dockerfile'",
        '  args:',
        '    - ${{ inputs.greeting }}',
        "    - 'foo'",
        "    - 'bar'",
      );
      return args && evaluateTemplateValue(args, { inputs: { greeting: 'Hello' } });
    },
    expected: ['Hello', 'foo', 'bar'],
  },
  // "→ runs.steps[*].uses": every reference form of the example is accepted.
  {
    id: 'action/composite-uses-forms',
    run: () => {
      const uses = [
        'actions/checkout@8f4b7f84864484a7bf31766abe9204da3cbe65b3',
        'actions/checkout@v4',
        'actions/checkout@main',
        'actions/aws/ec2@main',
        '$/.github/actions/my-action',
        './.github/actions/my-action',
        'docker://gcr.io/cloud-builders/gradle',
        'docker://alpine:3.8',
      ];
      const result = action('name: a', 'runs:', '  using: composite', '  steps:', ...uses.map((u) => `    - uses: ${u}`));
      return [result.errors.length, (result.manifest?.runs as CompositeRuns | undefined)?.steps.map((step) => step.id)];
    },
    expected: [
      0,
      [
        '__actions_checkout',
        '__actions_checkout_2',
        '__actions_checkout_3',
        '__actions_aws',
        '__selfRepository',
        '__self',
        '__gcr_io_cloud-builders_gradle',
        '__alpine_3_8',
      ],
    ],
  },
  // "→ runs.steps[*].shell": required if run is set.
  {
    id: 'action/composite-run-needs-shell',
    run: () => actionErrors('name: a', 'runs:', '  using: composite', '  steps:', '    - run: echo'),
    expected: [`${ACTION} (Line: 5, Col: 7): Required property is missing: shell`],
  },
];
