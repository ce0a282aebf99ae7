/**
 * Semantic expectations (`expect.body.match`, header values): the values that mean something —
 * conclusions, step names, outputs, the job a cancellation names — compared by value; everything
 * non-semantic through an operator that checks only its form.
 *
 * - a scalar: equal (after substitution, so `{{jobId}}` compares with a captured id);
 * - an object: the members listed must match (others are not looked at); names are found
 *   exactly, then without case (the runner's reader);
 * - an array: the same length, element by element;
 * - operators, all of an object's `$` keys must hold: `$regex`, `$ci` (equal without case),
 *   `$type`, `$format` (formats.ts), `$absent`, `$present`, `$contains` (each matcher matches some
 *   element), `$each`, `$length`, `$oneOf`, `$not`, `$gte`, `$lte`, `$after`/`$before` (date-times),
 *   `$startsWith`, `$endsWith`, `$includes` (substring), `$json` (a string holding JSON that
 *   matches), `$authorityOf` (the runner's GHES rule: same host and port, or a sub-domain),
 *   `$count: {of, is}` (exactly `is` elements match `of`), `$unique: <member>` (no two elements
 *   share that member's value, compared without case), `$sameRoot: true` (paths that all lie under one
 *   top-level directory: an action archive).
 */
import { checkFormat } from './formats.js';
import { memberOf } from './paths.js';
import type { JsonObject, JsonValue } from './scenario-types.js';

export type Matcher = JsonValue;

const OPERATORS = new Set([
  '$regex', '$ci', '$type', '$format', '$absent', '$present', '$contains', '$each', '$length', '$oneOf', '$not',
  '$gte', '$lte', '$after', '$before', '$startsWith', '$endsWith', '$includes', '$json', '$authorityOf', '$count', '$unique', '$sameRoot',
]);

function isOperatorObject(value: JsonValue): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** Defects of a matcher: keys that start with `$` but are not operators, objects mixing operators and members. */
export function matcherProblems(matcher: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      const operators = keys.filter((key) => key.startsWith('$'));
      if (operators.length > 0 && operators.length < keys.length) found.push(`an object mixes operators and members (${keys.join(', ')})`);
      for (const [key, item] of Object.entries(value)) {
        if (key.startsWith('$') && !OPERATORS.has(key)) found.push(`unknown matcher operator '${key}'`);
        visit(item);
      }
    }
  };
  visit(matcher);
  return found;
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function typeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function authority(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function operator(name: string, argument: JsonValue, actual: JsonValue | undefined, path: string): string[] {
  const fail = (what: string) => [`${path || '(root)'}: ${what}, got ${show(actual)}`];
  const text = typeof actual === 'string' ? actual : undefined;
  switch (name) {
    case '$absent':
      return (actual === undefined) === (argument === true) ? [] : fail(argument === true ? 'must be absent' : 'must be present');
    case '$present':
      return (actual !== undefined && actual !== null) === (argument === true) ? [] : fail(argument === true ? 'must be present' : 'must be absent');
    case '$regex':
      return text !== undefined && new RegExp(String(argument)).test(text) ? [] : fail(`must match /${String(argument)}/`);
    case '$ci':
      return text !== undefined && text.toLowerCase() === String(argument).toLowerCase() ? [] : fail(`must be '${String(argument)}' (any case)`);
    case '$startsWith':
      return text?.startsWith(String(argument)) ? [] : fail(`must start with '${String(argument)}'`);
    case '$endsWith':
      return text?.endsWith(String(argument)) ? [] : fail(`must end with '${String(argument)}'`);
    case '$includes':
      return text?.includes(String(argument)) ? [] : fail(`must contain '${String(argument)}'`);
    case '$type': {
      const wanted = Array.isArray(argument) ? argument.map(String) : [String(argument)];
      const got = actual === undefined ? 'undefined' : typeOf(actual);
      return wanted.includes(got) || (got === 'integer' && wanted.includes('number')) ? [] : fail(`must be of type ${wanted.join(' or ')}`);
    }
    case '$format':
      return checkFormat(String(argument), actual) ? [] : fail(`must be a ${String(argument)}`);
    case '$length':
      return (Array.isArray(actual) || text !== undefined) && (actual as { length: number }).length === argument ? [] : fail(`must have length ${String(argument)}`);
    case '$gte':
      return typeof actual === 'number' && actual >= Number(argument) ? [] : fail(`must be >= ${String(argument)}`);
    case '$lte':
      return typeof actual === 'number' && actual <= Number(argument) ? [] : fail(`must be <= ${String(argument)}`);
    case '$after':
    case '$before': {
      const at = text === undefined ? Number.NaN : Date.parse(text);
      const bound = Date.parse(String(argument));
      const holds = name === '$after' ? at > bound : at < bound;
      return holds ? [] : fail(`must be a date-time ${name === '$after' ? 'after' : 'before'} ${String(argument)}`);
    }
    case '$authorityOf': {
      const mine = text === undefined ? undefined : authority(text);
      const theirs = authority(String(argument));
      return mine !== undefined && theirs !== undefined && (mine === theirs || mine.endsWith(`.${theirs}`)) ? [] : fail(`must be on the authority of ${String(argument)}`);
    }
    case '$json': {
      if (text === undefined) return fail('must be a string holding JSON');
      try {
        return matchValue(argument, JSON.parse(text) as JsonValue, `${path}<json>`);
      } catch (error) {
        return fail(`must hold JSON (${(error as Error).message})`);
      }
    }
    case '$not':
      return matchValue(argument, actual, path).length > 0 ? [] : fail(`must not match ${show(argument)}`);
    case '$oneOf': {
      const options = Array.isArray(argument) ? argument : [argument];
      return options.some((option) => matchValue(option, actual, path).length === 0) ? [] : fail(`must match one of ${show(argument)}`);
    }
    case '$each':
      if (!Array.isArray(actual)) return fail('must be an array');
      return actual.flatMap((item, index) => matchValue(argument, item, `${path}[${index}]`));
    case '$contains': {
      if (!Array.isArray(actual)) return fail('must be an array');
      const wanted = Array.isArray(argument) ? argument : [argument];
      return wanted.flatMap((matcher) =>
        actual.some((item) => matchValue(matcher, item, path).length === 0) ? [] : [`${path || '(root)'}: no element matches ${show(matcher)}`],
      );
    }
    case '$count': {
      if (!Array.isArray(actual)) return fail('must be an array');
      const spec = (argument ?? {}) as JsonObject;
      const count = actual.filter((item) => matchValue(spec['of'] ?? null, item, path).length === 0).length;
      return count === Number(spec['is']) ? [] : [`${path || '(root)'}: ${count} elements match ${show(spec['of'])}, expected ${String(spec['is'])}`];
    }
    case '$sameRoot': {
      if (!Array.isArray(actual) || actual.length === 0) return fail('must be a non-empty list of paths');
      const roots = new Set(actual.map((item) => String(item).split('/')[0]));
      const nested = actual.every((item) => String(item).includes('/') || String(item).endsWith('/') || roots.has(String(item)));
      return roots.size === 1 && nested ? [] : fail(`must lie under one top-level directory (found ${[...roots].slice(0, 5).join(', ')})`);
    }
    case '$unique': {
      if (!Array.isArray(actual)) return fail('must be an array');
      const seen = new Map<string, number>();
      for (const [index, item] of actual.entries()) {
        const key = JSON.stringify(memberOf(item, String(argument)) ?? null).toLowerCase();
        const before = seen.get(key);
        if (before !== undefined) return [`${path || '(root)'}[${index}]: ${String(argument)} ${key} again (first at [${before}])`];
        seen.set(key, index);
      }
      return [];
    }
    default:
      return [`${path || '(root)'}: unknown operator ${name}`];
  }
}

/** Every way `actual` differs from `matcher`; empty when it matches. */
export function matchValue(matcher: Matcher, actual: JsonValue | undefined, path = ''): string[] {
  if (isOperatorObject(matcher)) return Object.entries(matcher).flatMap(([name, argument]) => operator(name, argument, actual, path));
  if (Array.isArray(matcher)) {
    if (!Array.isArray(actual)) return [`${path || '(root)'}: must be an array of ${matcher.length}, got ${show(actual)}`];
    if (actual.length !== matcher.length) return [`${path || '(root)'}: must have ${matcher.length} elements, got ${actual.length}: ${show(actual)}`];
    return matcher.flatMap((item, index) => matchValue(item, actual[index], `${path}[${index}]`));
  }
  if (matcher !== null && typeof matcher === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path || '(root)'}: must be an object, got ${show(actual)}`];
    return Object.entries(matcher as JsonObject).flatMap(([key, item]) => matchValue(item, memberOf(actual, key), path === '' ? key : `${path}.${key}`));
  }
  return actual === matcher ? [] : [`${path || '(root)'}: must be ${show(matcher)}, got ${show(actual)}`];
}
