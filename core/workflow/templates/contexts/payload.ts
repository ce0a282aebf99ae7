/** Reading members of a webhook payload without trusting its shape. */
import type { ExpressionObject, ExpressionValue } from '../../expressions/index.js';

/** The member at `path`, or undefined where the payload has none (or not an object on the way). */
export function member(value: ExpressionValue | undefined, ...path: string[]): ExpressionValue | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || current === undefined || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as ExpressionObject)[key];
  }
  return current;
}

/** A string or number member as text; '' otherwise. */
export function text(value: ExpressionValue | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** `text`, with '' as undefined. */
export function optionalText(value: ExpressionValue | undefined): string | undefined {
  const result = text(value);
  return result === '' ? undefined : result;
}
