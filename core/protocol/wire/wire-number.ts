import { invalid } from './wire-format-error.js';

// Both codecs carry doubles. JSON has no spelling for NaN and the infinities; Newtonsoft (the
// runner's serializer) writes them as the strings below and reads those strings back into a
// double member.

/** A double as the runner writes it: finite numbers as JSON numbers, the others as strings. */
export function wireNumber(value: number): number | string {
  if (Number.isFinite(value)) return value;
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? 'Infinity' : '-Infinity';
}

/** A double member as the runner reads it: a JSON number or one of the non-finite spellings. */
export function toWireNumber(value: unknown, path: string): number {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  throw invalid(path, 'a number', value);
}
