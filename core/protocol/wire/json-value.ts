/** A value JSON can carry, as `JSON.parse` returns it and `JSON.stringify` accepts it. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** A parsed JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds a JSON object from entries without ever touching `Object.prototype`: a wire key such as
 * `__proto__` must become an own property, not replace the prototype.
 */
export function jsonObjectFromEntries(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  const result: Record<string, JsonValue> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return result;
}
