/**
 * Reading the job message's objects as the runner's Newtonsoft reader does: member names match
 * ignoring case (the last match wins), and each object is read against the list of members the
 * model knows, so what is left over can be kept instead of dropped.
 */
import type { JsonValue } from '../../../core/protocol/index.js';

export class JobMessageError extends Error {
  override readonly name = 'JobMessageError';
}

export type WireObject = Readonly<Record<string, JsonValue>>;

export function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One JSON object and the members read from it so far. */
export class Members {
  readonly #object: WireObject;
  readonly #path: string;
  readonly #read = new Set<string>();

  constructor(value: unknown, path: string) {
    if (!isObject(value)) throw new JobMessageError(`${path}: expected an object`);
    this.#object = value;
    this.#path = path;
  }

  get path(): string {
    return this.#path;
  }

  /** The member (any case), or undefined when absent. */
  get(name: string): JsonValue | undefined {
    const lower = name.toLowerCase();
    this.#read.add(lower);
    let found: JsonValue | undefined;
    for (const [key, value] of Object.entries(this.#object)) if (key.toLowerCase() === lower) found = value;
    return found;
  }

  /** Absent and null read as undefined. */
  optional(name: string): JsonValue | undefined {
    const value = this.get(name);
    return value === null ? undefined : value;
  }

  string(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new JobMessageError(`${this.#path}.${name} is required`);
    if (typeof value !== 'string') throw new JobMessageError(`${this.#path}.${name}: expected a string`);
    return value;
  }

  optionalString(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new JobMessageError(`${this.#path}.${name}: expected a string`);
    return value;
  }

  number(name: string, fallback?: number): number {
    const value = this.optional(name);
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
    throw new JobMessageError(`${this.#path}.${name}: expected a number`);
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
    throw new JobMessageError(`${this.#path}.${name}: expected a boolean`);
  }

  array(name: string): readonly JsonValue[] {
    const value = this.optional(name);
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new JobMessageError(`${this.#path}.${name}: expected a list`);
    return value;
  }

  /** Members not read so far, with their values (kept, not lost). */
  rest(): Record<string, JsonValue> {
    const rest: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(this.#object)) {
      if (!this.#read.has(key.toLowerCase())) Object.defineProperty(rest, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return rest;
  }
}

/** A `{name: string}` dictionary (endpoint `data`, authorization parameters, sidecars). */
export function stringMap(value: JsonValue | undefined, path: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new JobMessageError(`${path}: expected an object of strings`);
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    // The runner's Dictionary<string, string> holds a null as null; every reader treats it as empty.
    if (entry !== null && typeof entry !== 'string') throw new JobMessageError(`${path}.${key}: expected a string`);
    Object.defineProperty(result, key, { value: entry ?? '', enumerable: true, writable: true, configurable: true });
  }
  return result;
}
