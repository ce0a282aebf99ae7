/**
 * The called workflow's `on: workflow_call` → the caller job's input, secret and output
 * definitions, and the checks of what the caller passes, as GitHub's parser makes them:
 * required inputs and secrets present, nothing passed that is not declared, and (fix
 * "call-input-types", which the TypeScript converter skips) literal values and defaults of the
 * declared type: `boolean` takes only booleans, `number` only numbers (expressions are checked
 * at run time).
 */
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type { MappingToken, TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import { isBoolean, isMapping, isSequence, isString } from '@actions/workflow-parser/templates/tokens/type-guards';
import { siteOf } from '../convert/error-site.js';
import type { ConvertedReusableWorkflowJob } from '../model-types.js';
import type { ParseContext } from '../parse-context.js';

const WORKFLOW_CALL = 'workflow_call';

export function convertCallTrigger(context: ParseContext, on: TemplateToken, job: ConvertedReusableWorkflowJob): void {
  if (isString(on) && on.value === WORKFLOW_CALL) return validateCall(context, job);
  if (isSequence(on) && [...on].some((event) => isString(event) && event.value === WORKFLOW_CALL)) {
    return validateCall(context, job);
  }
  if (isMapping(on)) {
    const trigger = [...on].find((pair) => pair.key.toString() === WORKFLOW_CALL);
    if (trigger !== undefined) {
      if (isMapping(trigger.value)) {
        for (const definition of trigger.value) {
          if (!isMapping(definition.value)) continue;
          const key = definition.key.toString();
          if (key === 'inputs') job['input-definitions'] = definition.value;
          else if (key === 'secrets') job['secret-definitions'] = definition.value;
          else if (key === 'outputs') job.outputs = definition.value;
        }
      }
      return validateCall(context, job);
    }
  }
  context.collector.add(siteOf(context, on), `${WORKFLOW_CALL} key is not defined in the referenced workflow.`);
}

function validateCall(context: ParseContext, job: ConvertedReusableWorkflowJob): void {
  validateInputs(context, job);
  if (!job['inherit-secrets']) validateSecrets(context, job);
}

function validateInputs(context: ParseContext, job: ConvertedReusableWorkflowJob): void {
  const values = byName(job['input-values']);
  const definitions = byName(job['input-definitions']);
  for (const [name, [displayName, definition]] of definitions) {
    if (!isMapping(definition)) continue;
    const spec = byName(definition);
    const type = spec.get('type')?.[1];
    const typeName = type !== undefined && isString(type) ? type.value : undefined;
    const fallback = spec.get('default')?.[1];
    if (fallback !== undefined) checkType(context, typeName, fallback);
    const value = values.get(name)?.[1];
    if (value !== undefined) {
      checkType(context, typeName, value);
      continue;
    }
    const required = spec.get('required')?.[1];
    if (required !== undefined && isBoolean(required) && required.value) {
      context.collector.add(siteOf(context, job.ref), `Input ${displayName} is required, but not provided while calling.`);
    }
  }
  reportUndeclared(context, values, definitions, 'input');
}

function validateSecrets(context: ParseContext, job: ConvertedReusableWorkflowJob): void {
  const values = byName(job['secret-values']);
  const definitions = byName(job['secret-definitions']);
  for (const [name, [displayName, definition]] of definitions) {
    if (definition.templateTokenType === TokenType.Null || values.has(name) || !isMapping(definition)) continue;
    const required = byName(definition).get('required')?.[1];
    if (required !== undefined && isBoolean(required) && required.value) {
      context.collector.add(siteOf(context, job.ref), `Secret ${displayName} is required, but not provided while calling.`);
    }
  }
  reportUndeclared(context, values, definitions, 'secret');
}

function reportUndeclared(
  context: ParseContext,
  values: Map<string, [string, TemplateToken]>,
  definitions: Map<string, [string, TemplateToken]>,
  kind: 'input' | 'secret',
): void {
  for (const [name, [displayName, value]] of values) {
    if (!definitions.has(name)) {
      context.collector.add(siteOf(context, value), `Invalid ${kind}, ${displayName} is not defined in the referenced workflow.`);
    }
  }
}

/** A literal of the wrong type is `Unexpected value '<literal>'`, as GitHub's template evaluator says. */
function checkType(context: ParseContext, type: string | undefined, value: TemplateToken): void {
  if (!value.isLiteral) return;
  const matches =
    type === 'boolean' ? value.templateTokenType === TokenType.Boolean
    : type === 'number' ? value.templateTokenType === TokenType.Number
    : true;
  if (!matches) context.collector.add(siteOf(context, value), `Unexpected value '${value.toString()}'`);
}

/** Mapping entries by lower-cased key (GitHub matches these names case-insensitively). */
function byName(mapping: MappingToken | undefined): Map<string, [string, TemplateToken]> {
  const result = new Map<string, [string, TemplateToken]>();
  for (const pair of mapping ?? []) {
    const name = pair.key.toString();
    if (!result.has(name.toLowerCase())) result.set(name.toLowerCase(), [name, pair.value]);
  }
  return result;
}
