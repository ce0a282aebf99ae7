/**
 * Which contexts and functions each workflow field allows ("Contexts → Context availability").
 * The lists are read from the workflow schema of `@actions/workflow-parser`, where every
 * definition may carry a `context` list and a field inherits the lists of the definitions above
 * it (the parser's reader accumulates them the same way). A field is named the way GitHub's
 * documentation names it: `run-name`, `jobs.<job_id>.runs-on`, `jobs.<job_id>.steps.run`,
 * `on.workflow_call.outputs.<output_id>.value`; any segment may stand for a loose key (a job
 * id, an env name), and a segment that names a property of a sequence's items steps into the
 * sequence (`steps.run`).
 */
import { DefinitionInfo } from '@actions/workflow-parser/templates/schema/definition-info';
import { DefinitionType } from '@actions/workflow-parser/templates/schema/definition-type';
import type { MappingDefinition } from '@actions/workflow-parser/templates/schema/mapping-definition';
import type { SequenceDefinition } from '@actions/workflow-parser/templates/schema/sequence-definition';
import { allowedNames, type AllowedNames } from '../expressions/index.js';
import { parserSchema, type ParserSchemaKind } from './parser-schema.js';

/** The root definitions of the parser's schemas. */
export const WORKFLOW_ROOT = 'workflow-root';
export const ACTION_ROOT = 'action-root';

export interface FieldDefinition {
  /** The field path as asked. */
  readonly path: string;
  /** The schema's definition at that path (e.g. `runs-on`, `string-steps-context`). */
  readonly definition: DefinitionInfo;
  /** The accumulated `context` entries in schema notation: `github`, `hashFiles(1,255)`, ... */
  readonly contexts: readonly string[];
}

const cache = new Map<string, FieldDefinition>();

/**
 * The schema definition of a workflow (or action) field. Throws a TypeError for a path the
 * schema does not have.
 */
export function fieldDefinition(path: string, kind: ParserSchemaKind = 'workflow'): FieldDefinition {
  const key = `${kind}\u0000${path}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const schema = parserSchema(kind);
  let info = new DefinitionInfo(schema, kind === 'workflow' ? WORKFLOW_ROOT : ACTION_ROOT);
  for (const segment of splitPath(path)) {
    const next = step(info, segment);
    if (next === undefined) throw new TypeError(`no field '${segment}' in '${path}'`);
    info = next;
  }
  const field: FieldDefinition = { path, definition: info, contexts: [...info.allowedContext] };
  cache.set(key, field);
  return field;
}

/**
 * The contexts and special functions a field allows, in the schema's notation (`github`,
 * `needs`, `hashFiles(1,255)`, `success(0,MAX)`); empty where expressions are not allowed.
 */
export function allowedContextsFor(path: string, kind: ParserSchemaKind = 'workflow'): readonly string[] {
  return fieldDefinition(path, kind).contexts;
}

const namesCache = new Map<string, AllowedNames>();

/** `allowedContextsFor` as the expression layer's allowed names. */
export function allowedNamesFor(path: string, kind: ParserSchemaKind = 'workflow'): AllowedNames {
  return namesOf(allowedContextsFor(path, kind));
}

/** Allowed names for a list in schema notation, built once per distinct list. */
export function namesOf(contexts: readonly string[]): AllowedNames {
  const key = contexts.join(',');
  let names = namesCache.get(key);
  if (names === undefined) {
    names = allowedNames(contexts);
    namesCache.set(key, names);
  }
  return names;
}

function splitPath(path: string): string[] {
  // `steps[*]` and `steps.*` both mean "an item of steps"; the walk steps into sequences anyway.
  return path
    .replace(/\[[^\]]*\]/g, '')
    .split('.')
    .filter((segment) => segment !== '' && segment !== '*');
}

function step(info: DefinitionInfo, segment: string): DefinitionInfo | undefined {
  const viaMapping = mappingStep(info, segment);
  if (viaMapping) return viaMapping;
  const sequence = info.getDefinitionsOfType(DefinitionType.Sequence)[0] as SequenceDefinition | undefined;
  if (sequence === undefined) return undefined;
  return mappingStep(new DefinitionInfo(info, sequence.itemType), segment);
}

function mappingStep(info: DefinitionInfo, segment: string): DefinitionInfo | undefined {
  const mappings = info.getDefinitionsOfType(DefinitionType.Mapping) as MappingDefinition[];
  for (const mapping of mappings) {
    const property = mapping.properties[segment];
    if (property) return new DefinitionInfo(info, property.type);
  }
  const loose = mappings.find((mapping) => mapping.looseValueType);
  return loose ? new DefinitionInfo(info, loose.looseValueType) : undefined;
}
