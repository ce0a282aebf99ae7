import { WireFormatError, describeValue, invalid } from './wire-format-error.js';
import { toWireNumber } from './wire-number.js';

// The runner reads an object's members with Newtonsoft's Populate: a property name matches a
// member exactly or, failing that, ignoring case; when several properties match one member the
// last one in the document wins. Member names here are ASCII, so only ASCII letters are folded
// (a non-ASCII name such as the Kelvin sign never matches `k`).
function asciiLower(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

type WireObject = Readonly<Record<string, unknown>>;

/** The member `name` (lower-case ASCII) as Populate would see it; `undefined` when absent. */
export function readMember(obj: WireObject, name: string): unknown {
  let found: unknown = undefined;
  for (const key of Object.keys(obj)) {
    if (key === name || asciiLower(key) === name) found = obj[key];
  }
  return found;
}

/**
 * The discriminator (`type` for tokens, `t` for context data). The runner looks it up with an
 * exact match first, then the first case-insensitive one. `undefined` when absent (the readers
 * then default to a string); anything but an integer is refused (the runner silently drops the
 * whole value).
 */
export function readTypeCode(obj: WireObject, name: string, path: string): number | undefined {
  let value: unknown = obj[name];
  if (!Object.hasOwn(obj, name)) {
    const key = Object.keys(obj).find((k) => asciiLower(k) === name);
    if (key === undefined) return undefined;
    value = obj[key];
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new WireFormatError('unknown_type', `${path}.${name}`, `expected an integer type code, got ${describeValue(value)}`);
  }
  return value;
}

/** A string member; absent or null reads as the empty string (the runner's `Value` getters). */
export function readString(obj: WireObject, name: string, path: string): string {
  const value = readMember(obj, name);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid(`${path}.${name}`, 'a string', value);
  return value;
}

/** A boolean member; absent reads as false. */
export function readBoolean(obj: WireObject, name: string, path: string): boolean {
  const value = readMember(obj, name);
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalid(`${path}.${name}`, 'a boolean', value);
  return value;
}

/** A number member (a double in the runner); absent reads as 0. */
export function readNumber(obj: WireObject, name: string, path: string): number {
  const value = readMember(obj, name);
  if (value === undefined) return 0;
  return toWireNumber(value, `${path}.${name}`);
}

/** An optional 32-bit integer member (token `file`/`line`/`col`); null reads as absent. */
export function readOptionalInt32(obj: WireObject, name: string, path: string): number | undefined {
  const value = readMember(obj, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
    throw invalid(`${path}.${name}`, 'a 32-bit integer', value);
  }
  return value;
}

/** An array member; absent or null reads as empty. */
export function readArray(obj: WireObject, name: string, path: string): readonly unknown[] {
  const value = readMember(obj, name);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${path}.${name}`, 'an array', value);
  return value;
}
