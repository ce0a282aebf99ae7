import { ValidationError } from '../../core/kernel/index.js';

/** GitHub's limit on one secret or variable value: 48 KB. */
export const MAX_VALUE_BYTES = 48 * 1024;

/** What a stored value is: a secret (sealed, never listed with its value) or a configuration variable (`vars`). */
export type ValueKind = 'secret' | 'var';

/**
 * Where a value applies: everywhere (global), one repository, or one environment of a repository.
 * Stored as `repository` / `environment` with `''` for "none".
 */
export interface Scope {
  readonly repository?: string;
  readonly environment?: string;
}

const NAME = /^[A-Z_][A-Z0-9_]*$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const ENVIRONMENT = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The spec's UPPER_SNAKE, with GitHub's reserved prefix and its leading digit rule. */
export function checkName(kind: ValueKind, name: string): string {
  const what = kind === 'secret' ? 'secret' : 'variable';
  if (!NAME.test(name)) {
    throw new ValidationError(`'${name}' is not a ${what} name: use UPPER_SNAKE (A-Z, 0-9 and _, not starting with a digit), e.g. DEPLOY_KEY`, { code: 'invalid_name' });
  }
  if (name.startsWith('GITHUB_')) throw new ValidationError(`${what} names must not start with GITHUB_ (reserved): rename '${name}'`, { code: 'invalid_name' });
  return name;
}

/** A scope from request or command-line parts; an environment needs its repository. */
export function checkScope(repository: string | undefined, environment: string | undefined): Scope {
  if (repository !== undefined && !REPOSITORY.test(repository)) {
    throw new ValidationError(`'${repository}' is not a repository: give it as owner/repo`, { code: 'invalid_scope' });
  }
  if (environment !== undefined) {
    if (repository === undefined) throw new ValidationError(`an environment ('${environment}') belongs to a repository: give the repository too (--repo owner/repo)`, { code: 'invalid_scope' });
    if (!ENVIRONMENT.test(environment) || Buffer.byteLength(environment) > 255) {
      throw new ValidationError(`'${environment}' is not an environment name: ASCII letters, digits, - and _, not starting with - or _, at most 255 bytes`, { code: 'invalid_scope' });
    }
  }
  return { ...(repository === undefined ? {} : { repository }), ...(environment === undefined ? {} : { environment }) };
}

export function checkValue(kind: ValueKind, name: string, value: string): string {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_VALUE_BYTES) {
    throw new ValidationError(`the value of ${kind === 'secret' ? 'secret' : 'variable'} ${name} is ${bytes} bytes; the limit is ${MAX_VALUE_BYTES} (48 KB)`, { code: 'value_too_large' });
  }
  if (kind === 'var' && value === '') throw new ValidationError(`variable ${name} needs a value (an empty variable is not stored)`, { code: 'invalid_value' });
  return value;
}

/** `global`, `repo owner/repo` or `env owner/repo/E`, for messages and lists. */
export function describeScope(scope: Scope): string {
  if (scope.repository === undefined) return 'global';
  return scope.environment === undefined ? scope.repository : `${scope.repository} (environment ${scope.environment})`;
}
