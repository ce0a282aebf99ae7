/**
 * A quick yes for small JSON Schemas, so a process that only reads a valid file (the `svc` CLI
 * reading plugins.toml) need not load and compile Ajv, which costs more than the rest of the
 * CLI's start. Sound, not complete: it answers true only when the value is valid for every
 * keyword it knows, and false for anything else, an unknown keyword included; false means
 * "ask Ajv", which also words the error.
 */
const KNOWN = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'pattern', 'minLength', 'anyOf']);

export function simpleSchemaAccepts(schema: unknown, value: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const s = schema as Record<string, unknown>;
  if (Object.keys(s).some((key) => !KNOWN.has(key))) return false;
  if (s['type'] !== undefined && !hasType(s['type'], value)) return false;
  if (s['enum'] !== undefined && (!Array.isArray(s['enum']) || !s['enum'].includes(value))) return false;
  if (s['pattern'] !== undefined && (typeof s['pattern'] !== 'string' || typeof value !== 'string' || !new RegExp(s['pattern'], 'u').test(value))) return false;
  if (s['minLength'] !== undefined && (typeof s['minLength'] !== 'number' || typeof value !== 'string' || [...value].length < s['minLength'])) return false;
  if (s['anyOf'] !== undefined && (!Array.isArray(s['anyOf']) || !s['anyOf'].some((option) => simpleSchemaAccepts(option, value)))) return false;
  if (s['items'] !== undefined && (!Array.isArray(value) || !value.every((item) => simpleSchemaAccepts(s['items'], item)))) return false;
  if (s['properties'] !== undefined || s['required'] !== undefined || s['additionalProperties'] !== undefined) return objectAccepts(s, value);
  return true;
}

function objectAccepts(s: Record<string, unknown>, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const properties = (s['properties'] ?? {}) as Record<string, unknown>;
  const required = s['required'] ?? [];
  const additional = s['additionalProperties'] ?? true;
  // Only the forms the schemas here use; anything else goes to Ajv.
  if (typeof properties !== 'object' || !Array.isArray(required) || (additional !== true && additional !== false)) return false;
  const record = value as Record<string, unknown>;
  if (!required.every((key) => typeof key === 'string' && Object.hasOwn(record, key))) return false;
  for (const [key, item] of Object.entries(record)) {
    if (Object.hasOwn(properties, key)) {
      if (!simpleSchemaAccepts(properties[key], item)) return false;
    } else if (additional === false) return false;
  }
  return true;
}

function hasType(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    default:
      return false;
  }
}
