import { TwirpError } from '../../../core/kernel/index.js';

/**
 * Protobuf JSON scalars as the toolkit sends them: int64 as a decimal string (numbers accepted
 * too), `google.protobuf.Timestamp` as an RFC 3339 string. Values outside what we can hold are
 * `invalid_argument`, never a 500.
 */
export function int64(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^-?\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) throw new TwirpError('invalid_argument', `${field} must be an int64 we can hold, got '${text.slice(0, 40)}'`);
  return Number(text);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 timestamp; undefined when absent. */
export function timestamp(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new TwirpError('invalid_argument', `${field} must be an RFC 3339 timestamp, got '${value.slice(0, 40)}'`);
  return ms;
}
