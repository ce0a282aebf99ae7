import { Ajv, type ValidateFunction } from 'ajv';
import { RunnerProtocolError } from './http-error.js';

// Answers are validated before the runner relies on them (STYLE.md: validation at every edge).
// Extra members are allowed everywhere: servers send more than the runner reads.
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: false });

export type Validator<T> = (value: unknown, what: string) => T;

/** A checker for one wire shape; it throws RunnerProtocolError naming `what` and every problem. */
export function wireValidator<T>(schema: object): Validator<T> {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value, what) => {
    if (validate(value)) return value as T;
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
    throw new RunnerProtocolError(`${what} is not what the runner expects: ${problems}`);
  };
}
