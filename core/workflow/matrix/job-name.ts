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
  const text = typeof value === 'number' ? formatNumberG15(value) : String(value);
  if (text !== '') segments.push(text);
}

/**
 * A double as .NET's `ToString("G15", InvariantCulture)` writes it: 15 significant digits,
 * fixed notation for exponents from -4 to 14, otherwise `1.5E+20` / `1E-05`.
 */
export function formatNumberG15(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  if (Number.isSafeInteger(value) && Math.abs(value) < 1e15) return String(value);
  const [mantissa = '', exponentText = '0'] = value.toExponential(14).split('e');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '');
  if (exponent >= 15 || exponent <= -5) {
    const tail = digits.slice(1);
    const power = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits.slice(0, 1)}${tail ? `.${tail}` : ''}E${exponent < 0 ? '-' : '+'}${power}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
