/**
 * OpenAPI 3.0 schemas as the JSON Schema ajv validates: `nullable: true` becomes a `null` type
 * (or an `anyOf` with `{type: 'null'}` when the schema has no `type`), annotations ajv does not
 * know (`example`, `discriminator`, `x-*`, ...) are dropped, and `#/components/...` references
 * point into the components document registered under `base`. Property names are kept as they
 * are: only schema positions are converted.
 */
import type { JsonSchema } from './openapi-description.js';

const ANNOTATIONS = new Set(['nullable', 'example', 'examples', 'discriminator', 'xml', 'externalDocs', 'deprecated', 'readOnly', 'writeOnly']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'additionalItems']);

export function toJsonSchema(schema: unknown, base: string): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') result[key] = value.startsWith('#/') ? `${base}${value}` : value;
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) {
      result[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub, base)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) result[key] = value.map((sub) => toJsonSchema(sub, base));
    else if (SCHEMA_VALUES.has(key)) result[key] = Array.isArray(value) ? value.map((sub) => toJsonSchema(sub, base)) : toJsonSchema(value, base);
    else result[key] = value;
  }
  if (source['nullable'] !== true) return result;
  if (typeof result['type'] === 'string') {
    result['type'] = [result['type'], 'null'];
    if (Array.isArray(result['enum'])) result['enum'] = [...(result['enum'] as unknown[]), null];
    return result;
  }
  return { anyOf: [result, { type: 'null' }] };
}

/** The `components.schemas` of a description, converted, as one document ajv can register under `base`. */
export function componentsDocument(components: Readonly<Record<string, unknown>>, base: string): JsonSchema {
  const schemas = (components['schemas'] ?? {}) as Readonly<Record<string, unknown>>;
  return { $id: base, components: { schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, base)])) } };
}
