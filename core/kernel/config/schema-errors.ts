import type { ErrorObject } from 'ajv';

/**
 * Turns Ajv errors into sentences naming the key and what is allowed:
 * `[fork_policy] has unknown key 'run_forks' (allowed: run_fork_workflows, require_approval)`.
 */
function keyPath(instancePath: string): string {
  if (instancePath === '') return '(top level)';
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z0-9_-]+$/.test(part) ? `.${part}` : `."${part}"`))
    .join('')
    .replace(/^\./, '');
}

function allowedKeys(schema: unknown): string[] {
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    return Object.keys((schema as { properties: Record<string, unknown> }).properties);
  }
  return [];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'a table';
  return JSON.stringify(value);
}

export function formatSchemaErrors(errors: readonly ErrorObject[], data: unknown): string[] {
  const out = new Set<string>();
  // A union failing yields one error per branch plus `anyOf`; report the literal choices once.
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const error of errors) {
    const path = keyPath(error.instancePath);
    const value = valueAt(data, error.instancePath);
    switch (error.keyword) {
      case 'additionalProperties': {
        const key = (error.params as { additionalProperty: string }).additionalProperty;
        const allowed = allowedKeys(error.parentSchema);
        const where = error.instancePath === '' ? 'the top level' : `[${path}]`;
        const keyPattern = Object.keys((error.parentSchema as { patternProperties?: object }).patternProperties ?? {})[0];
        if (allowed.length === 0 && keyPattern !== undefined) {
          out.add(`${where} has key '${key}', which is not allowed (${patternHint(keyPattern)})`);
          break;
        }
        out.add(`${where} has unknown key '${key}'${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`);
        break;
      }
      case 'enum':
        out.add(`${path} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}; got ${describe(value)}`);
        break;
      case 'anyOf': {
        const choices = literalChoices(error.parentSchema);
        out.add(choices.length > 0 ? `${path} must be one of ${choices.join(', ')}; got ${describe(value)}` : `${path} has an invalid value ${describe(value)}`);
        break;
      }
      case 'const':
      case 'type':
        if (unionPaths.has(error.instancePath)) break;
        out.add(
          error.keyword === 'const'
            ? `${path} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}; got ${describe(value)}`
            : `${path} must be ${article((error.params as { type: string }).type)}; got ${describe(value)}`,
        );
        break;
      case 'pattern':
        out.add(`${path}: ${describe(value)} is not allowed here (${patternHint(error.schema as string)})`);
        break;
      case 'propertyNames':
        break; // the pattern error on the key says it better
      case 'minimum':
      case 'maximum':
        out.add(`${path} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${(error.params as { limit: number }).limit}; got ${describe(value)}`);
        break;
      case 'minLength':
        out.add(`${path} must not be empty`);
        break;
      default:
        out.add(`${path} ${error.message ?? 'is invalid'}`);
    }
  }
  return [...out];
}

function article(type: string): string {
  if (type === 'integer') return 'an integer';
  if (type === 'object') return 'a table';
  if (type === 'array') return 'an array';
  return `a ${type}`;
}

function patternHint(pattern: string): string {
  if (pattern.includes('A-Z][A-Z0-9_]')) return 'secret names are UPPER_SNAKE, e.g. NPM_TOKEN';
  if (pattern.includes('+/[')) return "repository keys are 'owner/repo'";
  if (pattern.includes('A-Za-z0-9][A-Za-z0-9_-]')) return 'environment names use ASCII letters, digits, - and _, at most 255 bytes, and do not start with - or _';
  return `must match ${pattern}`;
}

function literalChoices(schema: unknown): string[] {
  const branches = (schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf ?? [];
  return branches.filter((b) => b.const !== undefined).map((b) => String(b.const));
}

function valueAt(data: unknown, pointer: string): unknown {
  let current: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
