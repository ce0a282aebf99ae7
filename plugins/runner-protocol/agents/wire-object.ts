/**
 * The runner reads JSON property names case-insensitively and writes enums as names or numbers
 * (§0.3); what we read from it gets the same tolerance.
 */
export type WireObject = Readonly<Record<string, unknown>>;

export function isWireObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member by name, any casing (an exact match wins). */
export function member(object: WireObject, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(object)) if (key.toLowerCase() === lower) return object[key];
  return undefined;
}
