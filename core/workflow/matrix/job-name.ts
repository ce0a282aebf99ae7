/**
 * The display name GitHub gives a matrix job (GitHub's job name builder in the runner's workflow
 * parser): the base name, then in parentheses every scalar found in the combination's name
 * values, depth first in order (map keys are not shown), joined by ", ". Booleans show as
 * `true`/`false`, numbers in the runner's "G15" format, empty strings and nulls are left out.
 * Names longer than 100 characters are cut to 97 and end with "...".
 *
 * `build` with `{os: ubuntu-latest, node: 18}` is `build (ubuntu-latest, 18)`; with
 * `{node: {version: 20, env: prod}}` it is `build (20, prod)`.
 */
import { getKey } from './matrix-filter.js';
import type { JsonValue, MatrixCombination } from './types.js';
import { formatRunnerNumber } from '../../protocol/index.js';

export const JOB_NAME_MAX_LENGTH = 100;

/**
 * @param baseName the job's `name:` when it is a plain string, else the job id. (A `name:` with
 *   an expression is evaluated per job by the caller and shown as is, without values.)
 */
export function matrixJobName(baseName: string, combination: Pick<MatrixCombination, 'values' | 'nameKeys'>): string {
  const segments: string[] = [];
  for (const key of combination.nameKeys) collectSegments(getKey(combination.values, key) ?? null, segments);
  const name = segments.length === 0 ? baseName : `${baseName} (${segments.join(', ')})`;
  return name.length > JOB_NAME_MAX_LENGTH ? `${name.slice(0, JOB_NAME_MAX_LENGTH - 3)}...` : name;
}

function collectSegments(value: JsonValue, segments: string[]): void {
  if (value === null) return;
  if (typeof value === 'object') {
    const items = Array.isArray(value) ? (value as readonly JsonValue[]) : Object.values(value);
    for (const item of items) collectSegments(item, segments);
    return;
  }
  const text = typeof value === 'number' ? formatRunnerNumber(value) : String(value);
  if (text !== '') segments.push(text);
}
