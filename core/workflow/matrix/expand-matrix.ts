/**
 * Matrix expansion, GitHub's rules ("Using a matrix for your jobs" and GitHub's matrix builder
 * in the runner's workflow parser):
 *
 * 1. The cross product of the vectors, in declaration order, the first vector varying slowest.
 * 2. Each combination any `exclude` entry matches (partially: only the keys it names) is dropped.
 * 3. Each `include` entry is split into the keys that name a vector (its filter) and the others
 *    (its extra values). Every remaining combination its filter matches gets its extra values;
 *    later entries overwrite values earlier entries added, never the vector values. An entry
 *    that matched no combination becomes a combination of its own, after all the others. So
 *    includes are applied after excludes, and an include-only matrix runs one job per entry.
 * 4. At most 256 jobs.
 *
 * A matrix whose combinations are all excluded yields no combination; the strategy then runs
 * the job once without a matrix (see `resolveStrategy`).
 */
import { filterMatches, type MatrixFilter } from './matrix-filter.js';
import { parseMatrix, type IncludeEntry, type Vector } from './parse-matrix.js';
import type { JsonObject, JsonValue, MatrixCombination, MatrixExpansion } from './types.js';

/** GitHub: "A matrix will generate a maximum of 256 jobs per workflow run." */
export const MATRIX_JOB_LIMIT = 256;

/**
 * Cross products larger than this are refused without being walked: excludes would have to
 * remove all but 256 of over a million combinations, which no real workflow does.
 */
const CROSS_PRODUCT_WALK_LIMIT = 1 << 20;

export interface ExpandOptions {
  /** The job id, for the error message when the matrix yields too many jobs. */
  readonly jobId?: string;
}

export function expandMatrix(matrix: JsonValue | undefined, options: ExpandOptions = {}): MatrixExpansion {
  const parsed = parseMatrix(matrix);
  if (!parsed.ok) return parsed;
  const { vectors, include, exclude } = parsed.matrix;
  const tooMany: MatrixExpansion = {
    ok: false,
    errors: [`Strategy expansion exceeded ${MATRIX_JOB_LIMIT} results for job '${options.jobId ?? ''}'`],
  };

  const size = vectors.length === 0 ? 0 : vectors.reduce((n, vector) => n * vector.values.length, 1);
  if (size > CROSS_PRODUCT_WALK_LIMIT) return tooMany;

  const combinations: MatrixCombination[] = [];
  const matched = new Array<boolean>(include.length).fill(false);
  const nameKeys = vectors.map((vector) => vector.key);
  for (let index = 0; index < size; index++) {
    const entries = productEntries(vectors, size, index);
    const values = Object.fromEntries(entries) as JsonObject;
    if (exclude.some((filter: MatrixFilter) => filterMatches(filter, values))) continue;
    const extras = applyIncludes(include, values, matched);
    if (combinations.length === MATRIX_JOB_LIMIT) return tooMany;
    combinations.push(combination([...entries, ...extras], nameKeys, 'product'));
  }

  for (const [i, entry] of include.entries()) {
    if (matched[i]) continue;
    if (combinations.length === MATRIX_JOB_LIMIT) return tooMany;
    const entries = [...entry.filterPairs, ...entry.extraPairs];
    combinations.push(combination(entries, entries.map(([key]) => key), 'include'));
  }
  return { ok: true, combinations };
}

/** The vector values of combination `index`: the first vector changes slowest. */
function productEntries(vectors: readonly Vector[], size: number, index: number): [string, JsonValue][] {
  const entries: [string, JsonValue][] = [];
  let block = size;
  for (const vector of vectors) {
    const count = vector.values.length;
    block /= count;
    entries.push([vector.key, vector.values[Math.floor(index / block) % count] as JsonValue]);
  }
  return entries;
}

/**
 * The extra values the include entries add to one combination, in first-added order; a later
 * entry overwrites an earlier one's value (keys compare case-insensitively, the first spelling
 * stays).
 */
function applyIncludes(include: readonly IncludeEntry[], values: JsonObject, matched: boolean[]): [string, JsonValue][] {
  const extras = new Map<string, [string, JsonValue]>();
  include.forEach((entry, i) => {
    if (!filterMatches(entry.filter, values)) return;
    matched[i] = true;
    for (const [key, value] of entry.extraPairs) {
      const folded = key.toLowerCase();
      const existing = extras.get(folded);
      extras.set(folded, [existing ? existing[0] : key, value]);
    }
  });
  return [...extras.values()];
}

function combination(
  entries: readonly (readonly [string, JsonValue])[],
  nameKeys: readonly string[],
  origin: MatrixCombination['origin'],
): MatrixCombination {
  return { values: Object.fromEntries(entries) as JsonObject, nameKeys, origin };
}
