/**
 * Stable codes (part of the API) for JSON the codecs refuse:
 * - `invalid_value`: a value of the wrong JSON type, or a required member missing;
 * - `unknown_type`: a `type`/`t` code the runner does not know (or that is not an integer);
 * - `duplicate_key`: a key collision the runner would fail on;
 * - `too_deep`: nesting beyond what the codecs accept.
 */
export type WireFormatErrorCode = 'invalid_value' | 'unknown_type' | 'duplicate_key' | 'too_deep';

/**
 * Raised when runner wire data cannot be read or written. `path` points at the offending value
 * (`$.map[2].Value`). core/protocol knows no HTTP: a caller at an HTTP edge wraps this in its
 * own input error (keeping it as `cause`).
 */
export class WireFormatError extends Error {
  readonly code: WireFormatErrorCode;
  readonly path: string;

  constructor(code: WireFormatErrorCode, path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'WireFormatError';
    this.code = code;
    this.path = path;
  }
}

/** Deepest nesting the decoders follow, so hostile input fails cleanly instead of overflowing the stack. */
export const MAX_WIRE_DEPTH = 512;

/** A WireFormatError for a value of the wrong JSON type. */
export function invalid(path: string, expected: string, value: unknown): WireFormatError {
  return new WireFormatError('invalid_value', path, `expected ${expected}, got ${describeValue(value)}`);
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
