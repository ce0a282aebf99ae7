/** Our JSON-like value type: what expressions read (contexts) and produce. */
import { formatNumber } from './number-format.js';

/** A value an expression reads or produces: plain JSON data. */
export type ExpressionValue =
  | null
  | boolean
  | number
  | string
  | readonly ExpressionValue[]
  | ExpressionObject;

export interface ExpressionObject {
  readonly [key: string]: ExpressionValue;
}

/** The kind names GitHub's corpus and the runner use for values. */
export type ExpressionKind = 'Null' | 'Boolean' | 'Number' | 'String' | 'Array' | 'Object';

/** The corpus/runner kind name of a plain value. */
export function kindOf(value: ExpressionValue): ExpressionKind {
  if (value === null) return 'Null';
  switch (typeof value) {
    case 'boolean':
      return 'Boolean';
    case 'number':
      return 'Number';
    case 'string':
      return 'String';
    default:
      return Array.isArray(value) ? 'Array' : 'Object';
  }
}

/** Truthiness as the runner decides an `if:`: null, false, 0, NaN and '' are false. */
export function isTruthy(value: ExpressionValue): boolean {
  if (value === null) return false;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return value !== 0 && !Number.isNaN(value);
    case 'string':
      return value.length > 0;
    default:
      return true;
  }
}

/**
 * The runner's conversion of a value to a string (`${{ }}` inside a longer string, `format()`
 * arguments, `join()` items): null is empty, numbers in the runner's format, arrays and objects
 * are the words `Array` and `Object`.
 */
export function toExpressionString(value: ExpressionValue): string {
  if (value === null) return '';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return formatNumber(value);
    case 'string':
      return value;
    default:
      return Array.isArray(value) ? 'Array' : 'Object';
  }
}
