/**
 * The action schema's token tree → the action model, with the runner's checks and messages
 * (its action manifest loader): `runs` is required, `using` decides the kind (compared ignoring
 * case), each kind needs its entry (`main`, `image`, `steps`). Keys the runner ignores (author,
 * branding, unknown top-level keys) are ignored here too.
 */
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { SequenceToken } from '@actions/workflow-parser/templates/tokens/sequence-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type { TemplateErrorList } from '../templates/index.js';
import type { ActionInput, ActionManifest, ActionOutput, ActionRuns, NodeVersion } from './action-types.js';
import { convertCompositeSteps } from './composite-steps.js';
import { dockerImage } from './docker-image.js';

const NODE_VERSIONS: readonly NodeVersion[] = ['node12', 'node16', 'node20', 'node24'];
const DEFAULT_STAGE_CONDITION = 'always()';

export function convertAction(root: TemplateToken, fileName: string, errors: TemplateErrorList): ActionManifest | undefined {
  const mapping = root.assertMapping('action manifest root');
  let name = '';
  let description: string | undefined;
  let author: string | undefined;
  let inputs: ActionInput[] = [];
  let outputs: ActionOutput[] = [];
  let runsToken: TemplateToken | undefined;
  for (const { key, value } of mapping) {
    switch (key.assertString('action.yml property key').value) {
      case 'name':
        name = value.assertString('name').value;
        break;
      case 'description':
        description = value.assertString('description').value;
        break;
      case 'author':
        if (value.templateTokenType === TokenType.String) author = value.assertString('author').value;
        break;
      case 'inputs':
        inputs = convertInputs(value);
        break;
      case 'outputs':
        outputs = convertOutputs(value);
        break;
      case 'runs':
        runsToken = value;
        break;
    }
  }
  if (runsToken === undefined) {
    errors.add(undefined, `Top level 'runs:' section is required for ${fileName}`);
    return undefined;
  }
  const runs = convertRuns(runsToken, fileName, errors);
  if (runs === undefined) return undefined;
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(author === undefined ? {} : { author }),
    inputs,
    outputs,
    runs,
  };
}

function convertInputs(token: TemplateToken): ActionInput[] {
  const inputs: ActionInput[] = [];
  for (const { key, value } of token.assertMapping('inputs')) {
    const input: { -readonly [K in keyof ActionInput]: ActionInput[K] } = {
      id: key.assertString('input name').value,
      required: false,
    };
    for (const pair of value.assertMapping('input metadata')) {
      const property = pair.key.assertString('input metadata').value.toLowerCase();
      if (property === 'default') input.default = pair.value;
      else if (property === 'deprecationmessage') input.deprecationMessage = pair.value.assertString('input deprecationMessage').value;
      else if (property === 'description' && pair.value.templateTokenType === TokenType.String) input.description = pair.value.toString();
      else if (property === 'required') input.required = isTrue(pair.value);
    }
    inputs.push(input);
  }
  return inputs;
}

function convertOutputs(token: TemplateToken): ActionOutput[] {
  const outputs: ActionOutput[] = [];
  for (const { key, value } of token.assertMapping('outputs')) {
    const output: { -readonly [K in keyof ActionOutput]: ActionOutput[K] } = { id: key.assertString('output name').value };
    for (const pair of value.assertMapping('output definition')) {
      const property = pair.key.assertString('output definition key').value;
      if (property === 'value') output.value = pair.value;
      else if (property === 'description' && pair.value.templateTokenType === TokenType.String) output.description = pair.value.toString();
    }
    outputs.push(output);
  }
  return outputs;
}

function convertRuns(token: TemplateToken, fileName: string, errors: TemplateErrorList): ActionRuns | undefined {
  const runs = new Map<string, TemplateToken>();
  for (const { key, value } of token.assertMapping('runs')) runs.set(key.assertString('runs key').value, value);
  const text = (name: string): string | undefined => {
    const value = runs.get(name);
    return value === undefined ? undefined : value.assertString(name).value;
  };
  const using = text('using');
  if (using === undefined) {
    errors.add(undefined, "Missing 'using' value. 'using' requires 'composite', 'docker', 'node12', 'node16', 'node20' or 'node24'.");
    return undefined;
  }
  const kind = using.toLowerCase();
  const stages = {
    ...optional('pre', text('pre')),
    preIf: text('pre-if') ?? DEFAULT_STAGE_CONDITION,
    ...optional('post', text('post')),
    postIf: text('post-if') ?? DEFAULT_STAGE_CONDITION,
  };
  if (kind === 'docker') {
    const image = text('image');
    if (!image) {
      errors.add(undefined, `You are using a Container Action but an image is not provided in ${fileName}.`);
      return undefined;
    }
    const source = dockerImage(image);
    if (source === undefined) {
      errors.add(runs.get('image'), `'${image}' should be either '[path]/Dockerfile' or 'docker://image[:tag]'.`);
      return undefined;
    }
    const args = runs.get('args');
    const env = runs.get('env');
    return {
      using: 'docker',
      image,
      source,
      ...optional('entrypoint', text('entrypoint')),
      ...optional('preEntrypoint', text('pre-entrypoint')),
      ...optional('postEntrypoint', text('post-entrypoint')),
      preIf: stages.preIf,
      postIf: stages.postIf,
      ...(args === undefined ? {} : { args: args.assertSequence('args') }),
      ...(env === undefined ? {} : { env: env.assertMapping('env') as MappingToken }),
    };
  }
  const node = NODE_VERSIONS.find((version) => version === kind);
  if (node !== undefined) {
    const main = text('main');
    if (!main) {
      errors.add(undefined, `You are using a JavaScript Action but there is not an entry JavaScript file provided in ${fileName}.`);
      return undefined;
    }
    return { using: node, runtime: node === 'node24' ? 'node24' : 'node20', main, ...stages };
  }
  if (kind === 'composite') {
    const steps = runs.get('steps');
    if (steps === undefined) {
      errors.add(undefined, `You are using a composite action but there are no steps provided in ${fileName}.`);
      return undefined;
    }
    return { using: 'composite', steps: convertCompositeSteps(steps.assertSequence('steps') as SequenceToken, errors) };
  }
  errors.add(runs.get('using'), `'using: ${using}' is not supported, use 'docker', 'node12', 'node16', 'node20' or 'node24' instead.`);
  return undefined;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function isTrue(token: TemplateToken): boolean {
  if (token.templateTokenType === TokenType.Boolean) return token.assertBoolean('required').value;
  return token.templateTokenType === TokenType.String && token.toString().toLowerCase() === 'true';
}
