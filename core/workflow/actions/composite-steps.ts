/**
 * `runs.steps` of a composite action, converted the way the runner converts them (its workflow
 * parser's step conversion): explicit ids checked, missing ids generated (`__run`,
 * `__actions_checkout`, `__self`, `__run_2`), `uses:` checked for `{org}/{repo}[/path]@ref`
 * (`./path`, `$/path` and `docker://image` need no ref), and `if:` turned into the condition
 * the runner evaluates. The schema (`run-step`, `uses-step`) has already checked the keys and
 * that a run step has `shell`.
 */
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { ScalarToken } from '@actions/workflow-parser/templates/tokens/scalar-token';
import type { SequenceToken } from '@actions/workflow-parser/templates/tokens/sequence-token';
import type { StringToken } from '@actions/workflow-parser/templates/tokens/string-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { ExpressionError, wrapIfCondition } from '../expressions/index.js';
import { allowedNamesFor, ifConditionText, type TemplateErrorList } from '../templates/index.js';
import type { CompositeRunStep, CompositeStep, CompositeUsesStep } from './action-types.js';
import { StepIds } from './step-ids.js';

const DOCKER_PREFIX = 'docker://';
const SELF_REPOSITORY_PREFIX = '$/';

/** A step before its id is settled. */
type StepWithoutId = Omit<CompositeRunStep, 'id' | 'generatedId'> | Omit<CompositeUsesStep, 'id' | 'generatedId'>;

interface StepFields {
  id?: StringToken;
  name?: ScalarToken;
  if?: ScalarToken;
  continueOnError?: ScalarToken;
  env?: TemplateToken;
  run?: ScalarToken;
  shell?: ScalarToken;
  workingDirectory?: ScalarToken;
  uses?: StringToken;
  with?: TemplateToken;
}

export function convertCompositeSteps(steps: SequenceToken, errors: TemplateErrorList): CompositeStep[] {
  const ids = new StepIds();
  const converted: { step: StepWithoutId; id: string | undefined }[] = [];
  for (const item of steps) {
    const fields = readFields(item as MappingToken);
    const explicit = fields.id?.value;
    if (fields.id !== undefined && explicit !== '' && explicit !== undefined) {
      const problem = ids.addKnown(explicit);
      if (problem !== undefined) errors.add(fields.id, problem);
    }
    const step = toStep(fields, errors);
    if (step !== undefined) converted.push({ step, id: explicit === '' ? undefined : explicit });
  }
  // Ids are generated after all explicit ones are known, so a generated id never takes one.
  return converted.map(({ step, id }) =>
    id === undefined
      ? ({ ...step, id: ids.generate(defaultIdSegment(step)), generatedId: true } as CompositeStep)
      : ({ ...step, id, generatedId: false } as CompositeStep),
  );
}

function readFields(step: MappingToken): StepFields {
  const fields: StepFields = {};
  for (const { key, value } of step) {
    const name = key.toString();
    switch (name) {
      case 'id':
        fields.id = value as StringToken;
        break;
      case 'name':
        fields.name = value as ScalarToken;
        break;
      case 'if':
        fields.if = value as ScalarToken;
        break;
      case 'continue-on-error':
        fields.continueOnError = value as ScalarToken;
        break;
      case 'env':
        fields.env = value;
        break;
      case 'run':
        fields.run = value as ScalarToken;
        break;
      case 'shell':
        fields.shell = value as ScalarToken;
        break;
      case 'working-directory':
        fields.workingDirectory = value as ScalarToken;
        break;
      case 'uses':
        fields.uses = value as StringToken;
        break;
      case 'with':
        fields.with = value;
        break;
    }
  }
  return fields;
}

function toStep(fields: StepFields, errors: TemplateErrorList): StepWithoutId | undefined {
  const condition = conditionOf(fields.if, errors);
  const common = {
    condition,
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.if === undefined ? {} : { if: fields.if }),
    ...(fields.continueOnError === undefined ? {} : { continueOnError: fields.continueOnError }),
    ...(fields.env === undefined ? {} : { env: fields.env }),
  };
  if (fields.run !== undefined && fields.shell !== undefined) {
    return {
      kind: 'run',
      ...common,
      run: fields.run,
      shell: fields.shell,
      ...(fields.workingDirectory === undefined ? {} : { workingDirectory: fields.workingDirectory }),
    };
  }
  if (fields.uses === undefined) return undefined;
  checkUses(fields.uses, errors);
  return { kind: 'uses', ...common, uses: fields.uses, ...(fields.with === undefined ? {} : { with: fields.with }) };
}

/** The condition the runner evaluates for the step. */
function conditionOf(token: ScalarToken | undefined, errors: TemplateErrorList): string {
  try {
    return wrapIfCondition(ifConditionText(token), allowedNamesFor('runs.steps.if', 'action'));
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    errors.add(token, error);
    return 'success()';
  }
}

function checkUses(uses: StringToken, errors: TemplateErrorList): void {
  const value = uses.value;
  if (value.startsWith(DOCKER_PREFIX) || value.startsWith('./') || value.startsWith('.\\') || isSelfRepository(value)) return;
  const [path = '', ref = '', ...rest] = value.split('@');
  const segments = path.split(/[/\\]/).filter((segment) => segment !== '');
  if (rest.length > 0 || segments.length < 2 || ref === '') {
    errors.add(uses, `Expected format {org}/{repo}[/path]@ref. Actual '${value}'`);
  }
}

/** What a generated id is made of: `run`, `owner/repo`, the docker image, `self`. */
function defaultIdSegment(step: StepWithoutId): string {
  if (step.kind === 'run') return 'run';
  const uses = step.uses.value;
  if (uses.startsWith(DOCKER_PREFIX)) return uses.slice(DOCKER_PREFIX.length) || 'run';
  if (uses.startsWith('./') || uses.startsWith('.\\')) return 'self';
  if (isSelfRepository(uses)) return 'selfRepository';
  const [path = '', ref = '', ...rest] = uses.split('@');
  const segments = path.split(/[/\\]/).filter((segment) => segment !== '');
  if (rest.length === 0 && ref !== '' && segments.length >= 2) return `${segments[0]}/${segments[1]}`;
  return 'run';
}

/** `$/<path>`: an action in the action's own repository at the running commit. */
function isSelfRepository(uses: string): boolean {
  return uses.startsWith(SELF_REPOSITORY_PREFIX) && uses.slice(SELF_REPOSITORY_PREFIX.length).replace(/^\/+/, '') !== '';
}
