/**
 * An include or exclude entry as GitHub applies it: every leaf of the entry (descending through
 * nested maps and lists) becomes a check `matrix.<path> == <leaf>`, and the entry matches a
 * combination when all checks hold. So a nested map matches partially (only the keys it names),
 * a list compares item by item over its own length, an empty map or list checks nothing, and
 * keys are found case-insensitively, as expressions find them.
 */
import { looseEquals } from './loose-equal.js';
import type { JsonObject, JsonPrimitive, JsonValue } from './types.js';

type Segment = string | number;

interface Leaf {
  readonly path: readonly Segment[];
  readonly literal: JsonPrimitive;
}

export interface MatrixFilter {
  readonly leaves: readonly Leaf[];
}

export function compileMatrixFilter(entry: JsonObject): MatrixFilter {
  const leaves: Leaf[] = [];
  const visit = (value: JsonValue, path: readonly Segment[]): void => {
    if (value === null || typeof value !== 'object') {
      leaves.push({ path, literal: value });
    } else if (Array.isArray(value)) {
      (value as readonly JsonValue[]).forEach((item, index) => visit(item, [...path, index]));
    } else {
      for (const [key, item] of Object.entries(value as JsonObject)) visit(item, [...path, key]);
    }
  };
  for (const [key, value] of Object.entries(entry)) visit(value, [key]);
  return { leaves };
}

export function filterMatches(filter: MatrixFilter, combination: JsonObject): boolean {
  return filter.leaves.every((leaf) => looseEquals(valueAt(combination, leaf.path), leaf.literal));
}

function valueAt(root: JsonValue, path: readonly Segment[]): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const segment of path) {
    if (current === undefined || current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      current = typeof segment === 'number' ? (current as readonly JsonValue[])[segment] : undefined;
    } else {
      current = getKey(current as JsonObject, String(segment));
    }
  }
  return current;
}

/** Case-insensitive key lookup (exact spelling first). */
export function getKey(object: JsonObject, key: string): JsonValue | undefined {
  if (Object.hasOwn(object, key)) return object[key];
  const lower = key.toLowerCase();
  for (const [candidate, value] of Object.entries(object)) {
    if (candidate.toLowerCase() === lower) return value;
  }
  return undefined;
}
