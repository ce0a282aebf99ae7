/**
 * Variable substitution in scenario data: `{{path}}` reads a variable (paths.ts), `{{$uuid}}` is a
 * fresh GUID, `{{$now}}` the current time as the runner writes it (7 fractional digits, `Z`),
 * `{{$iso}}` with milliseconds, `{{$nowMs}}` in milliseconds.
 * A string that is exactly one `{{...}}` takes the variable's type (a number stays a number, an
 * object an object); inside a longer string the value is written as text. `{{path ?? default}}`
 * gives a default when the member is missing or null: a JSON literal, else another path, else text. `${{ ... }}` is a
 * GitHub expression in a workflow file and is left alone.
 */
import { randomUUID } from 'node:crypto';
import { parsePath, pathRoot, readPath } from './paths.js';
import type { JsonObject, JsonValue } from './scenario-types.js';

const PLACEHOLDER = /(?<!\$)\{\{\s*([^{}]+?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]+?)\s*\}\}$/;

export class TemplateError extends Error {}

/** The runner's round-trip time format (`2026-08-21T10:15:03.2130000Z`). */
export function runnerTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}0000Z`;
}

function functionValue(name: string): JsonValue | undefined {
  switch (name) {
    case '$uuid':
      return randomUUID();
    case '$now':
      return runnerTime(Date.now());
    case '$nowMs':
      return Date.now();
    case '$iso':
      // The results service's timestamps (`yyyy-MM-ddTHH:mm:ss.fffZ`).
      return new Date().toISOString();
    default:
      return undefined;
  }
}

function literal(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function safeRead(vars: JsonObject, path: string): JsonValue | undefined {
  try {
    return readPath(vars, path);
  } catch {
    return undefined;
  }
}

function lookup(full: string, vars: JsonObject): JsonValue {
  // `{{path ?? default}}`: the default (a JSON literal, else text) when the member is missing.
  const split = full.indexOf('??');
  const expression = split < 0 ? full : full.slice(0, split).trim();
  if (split >= 0 && !expression.startsWith('$')) {
    const found = readPath(vars, expression);
    if (found !== undefined && found !== null) return found;
    const fallback = full.slice(split + 2).trim();
    const value = literal(fallback);
    // Not a JSON literal: another variable's path if it reads one, else the text itself.
    return typeof value === 'string' && value === fallback ? (safeRead(vars, fallback) ?? value) : value;
  }
  if (expression.startsWith('$')) {
    const value = functionValue(expression);
    if (value === undefined) throw new TemplateError(`unknown function {{${expression}}}`);
    return value;
  }
  const value = readPath(vars, expression);
  if (value === undefined) {
    const root = pathRoot(expression);
    const known = readPath(vars, root) !== undefined;
    throw new TemplateError(known ? `{{${expression}}} is missing (the variable '${root}' has no such member)` : `{{${expression}}}: the variable '${root}' is not set`);
  }
  return value;
}

function text(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function substituteString(template: string, vars: JsonObject): JsonValue {
  const whole = WHOLE.exec(template);
  if (whole?.[1] !== undefined) return lookup(whole[1], vars);
  return template.replace(PLACEHOLDER, (_match, expression: string) => text(lookup(expression, vars)));
}

/** Substitutes every string of a JSON value (keys stay as written). */
export function substitute(value: JsonValue, vars: JsonObject): JsonValue {
  if (typeof value === 'string') return substituteString(value, vars);
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars));
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    // defineProperty: a key such as `__proto__` stays a member, never the prototype.
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: substitute(item, vars), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** The variable names a value reads (for the corpus's use-before-set check); functions and reads with a default excluded. */
export function referencedVariables(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      for (const match of item.matchAll(PLACEHOLDER)) {
        const expression = match[1] ?? '';
        // A read with a default needs nothing set before it.
        if (expression.startsWith('$') || expression.includes('??')) continue;
        const [first] = parsePath(expression);
        if (first?.kind === 'member') names.add(first.name);
      }
    } else if (Array.isArray(item)) item.forEach(visit);
    else if (item !== null && typeof item === 'object') Object.values(item).forEach(visit);
  };
  visit(value);
  return [...names];
}
