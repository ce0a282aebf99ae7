/**
 * The non-semantic values of the wire, checked by form and never by value: GUIDs, the runner's
 * date-times and time spans, tokens (JWTs), base64 key material, URLs, commit SHAs. One table
 * serves JSON Schema (`format`) and the matcher (`{$format: ...}`). `enumCi` is an enum compared
 * without case, the way the runner reads enums.
 */
import { Ajv, type AnySchema } from 'ajv';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?(?:Z|[+-]\d{2}:\d{2})?$/;
const TIME_SPAN = /^(?:\d+\.)?\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const INT64 = /^-?\d{1,19}$/;

function isUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isJwt(text: string): boolean {
  if (!JWT.test(text)) return false;
  try {
    const header = JSON.parse(Buffer.from(text.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown };
    return typeof header.alg === 'string';
  } catch {
    return false;
  }
}

export const FORMATS: Readonly<Record<string, (text: string) => boolean>> = {
  guid: (text) => GUID.test(text),
  'date-time': (text) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text.endsWith('Z') || /[+-]\d{2}:\d{2}$/.test(text) ? text : `${text}Z`)),
  'time-span': (text) => TIME_SPAN.test(text),
  jwt: isJwt,
  base64: (text) => BASE64.test(text),
  url: isUrl,
  /** A base URL relative paths are resolved against: the runner's raw clients need the trailing `/`. */
  'base-url': (text) => isUrl(text) && text.endsWith('/'),
  sha: (text) => SHA.test(text),
  int64: (text) => INT64.test(text),
};

export function checkFormat(format: string, value: unknown): boolean {
  const check = FORMATS[format];
  if (!check) throw new Error(`unknown format '${format}' (known: ${Object.keys(FORMATS).join(', ')})`);
  return typeof value === 'string' && check(value);
}

/** An ajv instance with the formats, `enumCi`, and the corpus's shared shapes (`$ref: "shape:<name>"`). */
export function createValidator(shapes: readonly AnySchema[] = []): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  ajv.addKeyword({
    keyword: 'enumCi',
    type: 'string',
    schemaType: 'array',
    error: { message: (context) => `must be one of ${JSON.stringify(context.schema)} (any case)` },
    validate: (schema: readonly string[], data: string) => schema.some((item) => item.toLowerCase() === data.toLowerCase()),
  });
  for (const shape of shapes) ajv.addSchema(shape);
  return ajv;
}
