/**
 * Reads `strategy.matrix` (plain data) into vectors, include entries and exclude filters,
 * reporting what GitHub rejects, with GitHub's messages where we know them.
 */
import { compileMatrixFilter, type MatrixFilter } from './matrix-filter.js';
import type { JsonObject, JsonValue } from './types.js';

export interface Vector {
  readonly key: string;
  readonly values: readonly JsonValue[];
}

/** An include entry split GitHub's way: keys that name a vector filter, the others add values. */
export interface IncludeEntry {
  readonly filter: MatrixFilter;
  readonly filterPairs: readonly (readonly [string, JsonValue])[];
  readonly extraPairs: readonly (readonly [string, JsonValue])[];
}

export interface ParsedMatrix {
  readonly vectors: readonly Vector[];
  readonly include: readonly IncludeEntry[];
  readonly exclude: readonly MatrixFilter[];
}

export type MatrixParse = { readonly ok: true; readonly matrix: ParsedMatrix } | { readonly ok: false; readonly errors: readonly string[] };

export function parseMatrix(matrix: JsonValue | undefined): MatrixParse {
  if (!isObject(matrix)) return { ok: false, errors: ['The matrix must be a map of vectors (and include, exclude)'] };
  const errors: string[] = [];
  const vectors: Vector[] = [];
  // Every key but include/exclude names a vector, valid or not; names are case-insensitive.
  const vectorKeys = new Set(Object.keys(matrix).filter((k) => k !== 'include' && k !== 'exclude').map((k) => k.toLowerCase()));
  const isVector = (key: string): boolean => vectorKeys.has(key.toLowerCase());
  const seen = new Set<string>();

  for (const [key, value] of Object.entries(matrix)) {
    if (key === 'include' || key === 'exclude') continue;
    if (!Array.isArray(value)) errors.push(`Matrix vector '${key}' must be a list of values`);
    else if (value.length === 0) errors.push(`Matrix vector '${key}' does not contain any values`);
    else if (seen.has(key.toLowerCase())) errors.push(`Matrix key '${key}' is defined twice (matrix keys are case-insensitive)`);
    else vectors.push({ key, values: value as readonly JsonValue[] });
    seen.add(key.toLowerCase());
  }

  const includeEntries = readEntries(matrix['include'], 'include', errors);
  const excludeEntries = readEntries(matrix['exclude'], 'exclude', errors);

  const include: IncludeEntry[] = [];
  for (const entry of includeEntries) {
    const keys = Object.keys(entry);
    if (keys.length === 0) {
      errors.push('Matrix include mapping does not contain any values');
      continue;
    }
    const filterPairs = Object.entries(entry).filter(([key]) => isVector(key));
    const extraPairs = Object.entries(entry).filter(([key]) => !isVector(key));
    include.push({ filter: compileMatrixFilter(Object.fromEntries(filterPairs)), filterPairs, extraPairs });
  }

  const exclude: MatrixFilter[] = [];
  for (const entry of excludeEntries) {
    const keys = Object.keys(entry);
    if (keys.length === 0) {
      errors.push('Matrix exclude filter must not be empty');
      continue;
    }
    const unknown = keys.filter((key) => !isVector(key));
    for (const key of unknown) errors.push(`Matrix exclude key '${key}' does not match any key within the matrix`);
    if (unknown.length === 0) exclude.push(compileMatrixFilter(entry));
  }

  if (vectorKeys.size === 0 && includeEntries.length === 0) errors.push('Matrix must define at least one vector');

  return errors.length > 0 ? { ok: false, errors } : { ok: true, matrix: { vectors, include, exclude } };
}

function readEntries(value: JsonValue | undefined, name: 'include' | 'exclude', errors: string[]): readonly JsonObject[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.push(`Matrix ${name} must be a list of maps`);
    return [];
  }
  const entries: JsonObject[] = [];
  for (const entry of value as readonly JsonValue[]) {
    if (!isObject(entry)) {
      errors.push(`Each matrix ${name} entry must be a map`);
      continue;
    }
    const lowered = Object.keys(entry).map((key) => key.toLowerCase());
    const clash = Object.keys(entry).find((_, i) => lowered.indexOf(lowered[i] as string) !== i);
    if (clash !== undefined) errors.push(`Matrix ${name} entry has keys that differ only by case ('${clash}')`);
    else entries.push(entry);
  }
  return entries;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
