/**
 * The message's `steps` (§3.4): each element is an `action` (4) or, 2.335+, a
 * `backgroundStepControl` (5) step, by name in any case or by code; an element of another type
 * is left out, as the runner reads it as null. References: `repository` (1), `containerRegistry`
 * (2), `script` (3).
 */
import { decodeTemplateToken, type JsonValue, type TemplateToken } from '../../../core/protocol/index.js';
import type { ActionReference } from '../../handlers/index.js';
import type { ActionStep, BackgroundControlStep, JobStep, StepBase } from './job-message-types.js';
import { JobMessageError, Members } from './wire-members.js';

function typeName(value: JsonValue | undefined, names: Readonly<Record<number, string>>): string | undefined {
  if (typeof value === 'number') return names[value];
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    return Object.values(names).find((name) => name.toLowerCase() === lower);
  }
  return undefined;
}

const STEP_TYPES: Readonly<Record<number, string>> = { 4: 'action', 5: 'backgroundStepControl' };
const REFERENCE_TYPES: Readonly<Record<number, string>> = { 1: 'repository', 2: 'containerRegistry', 3: 'script' };

/** A TemplateToken member; JSON null and absent are both undefined (the runner's null reference). */
export function tokenMember(members: Members, name: string): TemplateToken | undefined {
  const value = members.optional(name);
  return value === undefined ? undefined : decodeTemplateToken(value, { path: `${members.path}.${name}` });
}

export function decodeSteps(value: readonly JsonValue[], path: string): JobStep[] {
  const steps: JobStep[] = [];
  value.forEach((item, index) => {
    const step = decodeStep(item, `${path}[${index}]`);
    if (step !== undefined) steps.push(step);
  });
  return steps;
}

function decodeStep(value: JsonValue, path: string): JobStep | undefined {
  if (value === null) return undefined;
  const members = new Members(value, path);
  const type = typeName(members.get('type'), STEP_TYPES);
  if (type === undefined) return undefined;
  const base = stepBase(members);
  if (type === 'action') {
    const reference = decodeReference(members.get('reference'), `${path}.reference`);
    const inputs = tokenMember(members, 'inputs');
    const environment = tokenMember(members, 'environment');
    const background = members.optionalBoolean('background');
    const step: ActionStep = {
      kind: 'action',
      ...base,
      reference,
      ...(inputs === undefined ? {} : { inputs }),
      ...(environment === undefined ? {} : { environment }),
      ...(background === undefined ? {} : { background }),
      extra: members.rest(),
    };
    return step;
  }
  const controlType = members.string('controlType');
  const stepIds = members.array('stepIds').map((id, i) => {
    if (typeof id !== 'string') throw new JobMessageError(`${path}.stepIds[${i}]: expected a string`);
    return id;
  });
  const step: BackgroundControlStep = { kind: 'backgroundStepControl', ...base, controlType, stepIds, extra: members.rest() };
  return step;
}

function stepBase(members: Members): Omit<StepBase, 'extra'> {
  const displayName = members.optionalString('displayName');
  const displayNameToken = tokenMember(members, 'displayNameToken');
  const contextName = members.optionalString('contextName');
  const continueOnError = tokenMember(members, 'continueOnError');
  const timeoutInMinutes = tokenMember(members, 'timeoutInMinutes');
  const enabled = members.optionalBoolean('enabled');
  const parallelGroupId = members.optionalString('parallelGroupId');
  return {
    id: members.string('id').toLowerCase(),
    name: members.optionalString('name') ?? '',
    condition: members.optionalString('condition') ?? '',
    ...(displayName === undefined ? {} : { displayName }),
    ...(displayNameToken === undefined ? {} : { displayNameToken }),
    ...(contextName === undefined ? {} : { contextName }),
    ...(continueOnError === undefined ? {} : { continueOnError }),
    ...(timeoutInMinutes === undefined ? {} : { timeoutInMinutes }),
    ...(enabled === undefined ? {} : { enabled }),
    ...(parallelGroupId === undefined ? {} : { parallelGroupId }),
  };
}

/**
 * A step's `reference`. Members another type would use are ignored, as the runner ignores them
 * (its reference classes do not have them).
 */
export function decodeReference(value: JsonValue | undefined, path: string): ActionReference {
  const members = new Members(value, path);
  const type = typeName(members.get('type'), REFERENCE_TYPES);
  switch (type) {
    case 'script':
      return { kind: 'script' };
    case 'containerRegistry':
      return { kind: 'container', image: members.string('image') };
    case 'repository':
      return {
        kind: 'repository',
        name: members.optionalString('name') ?? '',
        ref: members.optionalString('ref') ?? '',
        path: members.optionalString('path') ?? '',
        repositoryType: members.optionalString('repositoryType') ?? '',
      };
    default:
      throw new JobMessageError(`${path}.type: unknown step reference type ${JSON.stringify(members.get('type') ?? null)}`);
  }
}
