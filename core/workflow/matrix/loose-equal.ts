/**
 * The `==` of GitHub expressions, which include and exclude filters use: GitHub turns every leaf
 * of a filter into `matrix.<path> == <literal>`. Same kind: null equals null, strings compare
 * case-insensitively, numbers numerically (NaN equals nothing); objects and arrays equal nothing
 * here (they would need to be the same instance). Different kinds: a number and a string compare
 * as numbers; a boolean or null first becomes a number (true 1, false 0, null 0).
 */
import type { JsonPrimitive, JsonValue } from './types.js';
import { parseRunnerNumber as parseNumber } from '../../protocol/index.js';

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'object';

export function looseEquals(left: JsonValue | undefined, right: JsonPrimitive): boolean {
  let a: JsonValue = left === undefined ? null : left;
  let b: JsonValue = right;
  for (;;) {
    const ka = kindOf(a);
    const kb = kindOf(b);
    if (ka === kb) return sameKindEquals(ka, a, b);
    if (ka === 'number' && kb === 'string') b = parseNumber(b as string);
    else if (ka === 'string' && kb === 'number') a = parseNumber(a as string);
    else if (ka === 'boolean' || ka === 'null') a = toNumber(a);
    else if (kb === 'boolean' || kb === 'null') b = toNumber(b);
    else return false;
  }
}

function sameKindEquals(kind: Kind, a: JsonValue, b: JsonValue): boolean {
  switch (kind) {
    case 'null':
      return true;
    case 'string':
      return caseFoldEquals(a as string, b as string);
    case 'object':
      return false;
    default:
      // Numbers (NaN !== NaN, as in the runner) and booleans.
      return a === b;
  }
}

/** Ordinal ignore-case, the runner's string comparison: upper-cased unit by unit. */
function caseFoldEquals(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]?.toUpperCase() !== b[i]?.toUpperCase()) return false;
  }
  return true;
}

function kindOf(value: JsonValue): Kind {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return 'object';
}

function toNumber(value: JsonValue): number {
  return value === true ? 1 : 0;
}
