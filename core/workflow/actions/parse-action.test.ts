import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import { evaluateTemplateValue, readString } from '../templates/index.js';
import type { CompositeRuns, DockerRuns, NodeRuns } from './action-types.js';
import { parseActionManifest, type ParseActionResult } from './parse-action.js';

const FILE = 'octo/hello/v1/action.yml';

function parse(yaml: string): ParseActionResult {
  return parseActionManifest(yaml, { fileName: FILE });
}

function errorsOf(yaml: string): string[] {
  const result = parse(yaml);
  assert.equal(result.manifest, undefined);
  return result.errors.map((error) => error.text);
}

describe('javascript actions', () => {
  test('name, description, inputs with defaults and deprecation, outputs, main/pre/post', () => {
    const { manifest, errors } = parse(
      [
        'name: Hello',
        'description: Greets',
        'author: octo',
        'inputs:',
        '  who:',
        '    description: Whom to greet',
        '    required: true',
        '    default: ${{ github.actor }}',
        '  old:',
        '    deprecationMessage: Use who',
        'outputs:',
        '  time:',
        '    description: When',
        'runs:',
        '  using: node20',
        '  main: dist/index.js',
        '  pre: dist/setup.js',
        '  post: dist/cleanup.js',
        "  post-if: runner.os == 'Linux'",
        'branding:',
        '  icon: award',
      ].join('\n'),
    );
    assert.deepEqual(errors, []);
    assert.ok(manifest);
    assert.deepEqual([manifest.name, manifest.description, manifest.author], ['Hello', 'Greets', 'octo']);
    const [who, old] = manifest.inputs;
    assert.equal(who?.required, true);
    assert.equal(who?.default?.templateTokenType, TokenType.BasicExpression);
    assert.equal(evaluateTemplateValue(who.default, { github: { actor: 'mona' } }, { field: 'inputs.<id>.default', schema: 'action' }), 'mona');
    assert.deepEqual([old?.required, old?.deprecationMessage, old?.default], [false, 'Use who', undefined]);
    assert.deepEqual(manifest.outputs, [{ id: 'time', description: 'When' }]);
    assert.deepEqual(manifest.runs as NodeRuns, {
      using: 'node20',
      runtime: 'node20',
      main: 'dist/index.js',
      pre: 'dist/setup.js',
      preIf: 'always()',
      post: 'dist/cleanup.js',
      postIf: "runner.os == 'Linux'",
    });
  });

  test('node12 and node16 run on node20, as the runner maps them; using ignores case', () => {
    for (const using of ['node12', 'Node16']) {
      const runs = parse(`name: x\nruns:\n  using: ${using}\n  main: i.js\n`).manifest?.runs as NodeRuns;
      assert.deepEqual([runs.using, runs.runtime], [using.toLowerCase(), 'node20']);
    }
    assert.equal((parse('name: x\nruns:\n  using: node24\n  main: i.js\n').manifest?.runs as NodeRuns).runtime, 'node24');
  });

  test('the runner messages for a missing main, an unknown or missing using, a missing runs', () => {
    assert.deepEqual(errorsOf('name: x\nruns:\n  using: node20\n  pre: a.js\n'), [
      `You are using a JavaScript Action but there is not an entry JavaScript file provided in ${FILE}.`,
    ]);
    assert.deepEqual(errorsOf('name: x\nruns:\n  using: node10\n  main: a.js\n'), [
      `${FILE} (Line: 3, Col: 10): 'using: node10' is not supported, use 'docker', 'node12', 'node16', 'node20' or 'node24' instead.`,
    ]);
    assert.deepEqual(errorsOf('name: x\nruns:\n  main: a.js\n'), [
      "Missing 'using' value. 'using' requires 'composite', 'docker', 'node12', 'node16', 'node20' or 'node24'.",
    ]);
    assert.deepEqual(errorsOf('name: x\ndescription: y\n'), [`Top level 'runs:' section is required for ${FILE}`]);
  });

  test('schema errors come with line and column', () => {
    assert.deepEqual(errorsOf('name: x\nruns:\n  using: node20\n  main: a.js\n  mian: b.js\n'), [
      `${FILE} (Line: 5, Col: 3): Unexpected value 'mian'`,
    ]);
  });
});

describe('docker actions', () => {
  test('a registry image, entrypoints, args and env over inputs', () => {
    const { manifest, errors, fileTable } = parse(
      [
        'name: d',
        'inputs:',
        '  greeting: {default: hi}',
        'runs:',
        '  using: docker',
        '  image: docker://alpine:3.19',
        '  pre-entrypoint: /pre.sh',
        '  entrypoint: /main.sh',
        '  post-entrypoint: /post.sh',
        '  args: ["${{ inputs.greeting }}", "--flag"]',
        '  env:',
        '    GREETING: ${{ inputs.greeting }}',
      ].join('\n'),
    );
    assert.deepEqual(errors, []);
    const runs = manifest?.runs as DockerRuns;
    assert.deepEqual(runs.source, { kind: 'registry', image: 'alpine:3.19' });
    assert.deepEqual([runs.preEntrypoint, runs.entrypoint, runs.postEntrypoint, runs.preIf], ['/pre.sh', '/main.sh', '/post.sh', 'always()']);
    assert.ok(runs.args && runs.env);
    const inputs = { greeting: 'hello' };
    assert.deepEqual(evaluateTemplateValue(runs.args, { inputs }, { fileTable }), ['hello', '--flag']);
    assert.deepEqual(evaluateTemplateValue(runs.env, { inputs }, { fileTable }), { GREETING: 'hello' });
  });

  test('a Dockerfile is built; anything else is refused with the runner message', () => {
    assert.deepEqual((parse('name: d\nruns:\n  using: docker\n  image: Dockerfile\n').manifest?.runs as DockerRuns).source, {
      kind: 'dockerfile',
      path: 'Dockerfile',
    });
    assert.deepEqual(errorsOf('name: d\nruns:\n  using: docker\n  image: alpine\n'), [
      `${FILE} (Line: 4, Col: 10): 'alpine' should be either '[path]/Dockerfile' or 'docker://image[:tag]'.`,
    ]);
    assert.deepEqual(errorsOf('name: d\nruns:\n  using: docker\n  args: [a]\n'), [
      `You are using a Container Action but an image is not provided in ${FILE}.`,
    ]);
  });
});

describe('composite actions', () => {
  const composite = [
    'name: c',
    'outputs:',
    '  random:',
    '    description: A number',
    '    value: ${{ steps.gen.outputs.n }}',
    'runs:',
    '  using: composite',
    '  steps:',
    '    - run: echo one',
    '      shell: bash',
    '    - id: gen',
    '      name: Generate ${{ inputs.x }}',
    '      run: echo "n=4" >> $GITHUB_OUTPUT',
    '      shell: bash',
    '      working-directory: sub',
    '      env:',
    '        A: a',
    '      continue-on-error: true',
    "      if: inputs.x != ''",
    '    - uses: actions/checkout@v4',
    '      with:',
    '        ref: ${{ github.sha }}',
    '    - uses: ./local',
    '      if: always()',
    '    - run: echo two',
    '      shell: bash',
  ].join('\n');

  test('steps with their fields, conditions and generated ids', () => {
    const { manifest, errors } = parse(composite);
    assert.deepEqual(errors, []);
    const runs = manifest?.runs as CompositeRuns;
    assert.deepEqual(
      runs.steps.map((step) => [step.kind, step.id, step.generatedId, step.condition]),
      [
        ['run', '__run', true, 'success()'],
        ['run', 'gen', false, "success() && (inputs.x != '')"],
        ['uses', '__actions_checkout', true, 'success()'],
        ['uses', '__self', true, 'always()'],
        ['run', '__run_2', true, 'success()'],
      ],
    );
    const gen = runs.steps[1];
    assert.ok(gen?.kind === 'run');
    assert.equal(readString(gen.shell, 'shell'), 'bash');
    assert.equal(readString(gen.workingDirectory!, 'working-directory'), 'sub');
    assert.equal(gen.continueOnError?.templateTokenType, TokenType.Boolean);
    assert.equal(evaluateTemplateValue(gen.name!, { inputs: { x: 'y' } }), 'Generate y');
    const checkout = runs.steps[2];
    assert.ok(checkout?.kind === 'uses' && checkout.with);
    assert.deepEqual(evaluateTemplateValue(checkout.with, { github: { sha: 'abc' } }), { ref: 'abc' });
    const value = manifest?.outputs[0]?.value;
    assert.ok(value);
    assert.equal(evaluateTemplateValue(value, { steps: { gen: { outputs: { n: '4' } } } }), '4');
  });

  test('a run step needs a shell; runs without steps cannot be told apart from the other kinds', () => {
    assert.deepEqual(errorsOf('name: c\nruns:\n  using: composite\n  steps:\n    - run: echo\n'), [
      `${FILE} (Line: 5, Col: 7): Required property is missing: shell`,
    ]);
    // The schema's one-of answers before the runner's own "no steps provided" check can.
    assert.deepEqual(errorsOf('name: c\nruns:\n  using: composite\n'), [
      `${FILE} (Line: 3, Col: 3): There's not enough info to determine what you meant. Add one of these properties: ` +
        'args, entrypoint, env, image, main, post, post-entrypoint, pre, pre-entrypoint, steps',
    ]);
  });

  test('ids and uses are checked as the runner checks them', () => {
    const steps = [
      ['id: 1bad', 'run: x', 'shell: bash'],
      ['id: __mine', 'run: x', 'shell: bash'],
      ['id: twice', 'run: x', 'shell: bash'],
      ['id: TWICE', 'run: x', 'shell: bash'],
      ['uses: actions/checkout'],
    ]
      .map((lines) => `    - ${lines.join('\n      ')}`)
      .join('\n');
    assert.deepEqual(errorsOf(`name: c\nruns:\n  using: composite\n  steps:\n${steps}\n`), [
      `${FILE} (Line: 5, Col: 11): The identifier '1bad' is invalid. IDs may only contain alphanumeric characters, '_', and '-'. IDs must start with a letter or '_' and must be less than 100 characters.`,
      `${FILE} (Line: 8, Col: 11): The identifier '__mine' is invalid. IDs starting with '__' are reserved.`,
      `${FILE} (Line: 14, Col: 11): The identifier 'TWICE' may not be used more than once within the same scope.`,
      `${FILE} (Line: 17, Col: 13): Expected format {org}/{repo}[/path]@ref. Actual 'actions/checkout'`,
    ]);
  });

  test('composite steps may not read secrets (action schema)', () => {
    const errors = errorsOf('name: c\nruns:\n  using: composite\n  steps:\n    - run: echo ${{ secrets.X }}\n      shell: bash\n');
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /^octo\/hello\/v1\/action\.yml \(Line: 5, Col: 12\): Unrecognized named-value: 'secrets'/);
  });
});

test('YAML that does not parse is reported with its position', () => {
  const errors = errorsOf('name: [x\n');
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /^octo\/hello\/v1\/action\.yml \(Line: \d+, Col: \d+\): /);
});
