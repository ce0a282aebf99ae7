/**
 * Step ids within one scope (a job's or a composite action's steps), with the runner's rules:
 * an id starts with a letter or `_`, then letters, digits, `_` and `-`, shorter than 100
 * characters, not starting with `__` (reserved for generated ids), unique ignoring case.
 * Generated ids are `__<what>` with other characters replaced by `_`, and `_2`, `_3`, ... when
 * taken.
 */

export const MAX_ID_LENGTH = 100;
const VALID_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MAX_SUFFIX = 999;

export class StepIds {
  readonly #taken = new Set<string>();

  /** Registers an id written in the file; returns the runner's message when it is not allowed. */
  addKnown(id: string): string | undefined {
    if (!VALID_ID.test(id) || id.length >= MAX_ID_LENGTH) {
      return (
        `The identifier '${id}' is invalid. IDs may only contain alphanumeric characters, '_', and '-'. ` +
        `IDs must start with a letter or '_' and must be less than ${MAX_ID_LENGTH} characters.`
      );
    }
    if (id.startsWith('__')) return `The identifier '${id}' is invalid. IDs starting with '__' are reserved.`;
    const key = id.toLowerCase();
    if (this.#taken.has(key)) return `The identifier '${id}' may not be used more than once within the same scope.`;
    this.#taken.add(key);
    return undefined;
  }

  /** A new id for a step without one, made from `what` (`run`, `actions/checkout`, ...). */
  generate(what: string): string {
    const base = `__${what.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    for (let attempt = 1; attempt <= MAX_SUFFIX; attempt++) {
      const suffix = attempt === 1 ? '' : `_${attempt}`;
      const candidate = base.slice(0, MAX_ID_LENGTH - suffix.length) + suffix;
      if (!this.#taken.has(candidate.toLowerCase())) {
        this.#taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
    throw new Error('Unable to create a unique name');
  }
}
