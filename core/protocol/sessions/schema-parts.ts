// Value schemas shared by the session and message shapes, following the runner's JSON conventions
// (RUNNER-PROTOCOL.md §0.3). Patterns rather than `format`, so the schemas compile in any Ajv
// without ajv-formats and mean the same in Fastify and in the tests.

/** A GUID in .NET's "D" form; the runner writes lower case, .NET parses either. */
export const GUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

/** The GUID the runner sends for "none" (e.g. `sessionId` in a session request, `lockToken`). */
export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** ISO-8601 round-trip date-time, up to 7 fractional digits; the zone may be absent (`0001-01-01T00:00:00`). */
export const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,7})?(?:Z|[+-]\\d{2}:\\d{2})?$';

/** A .NET TimeSpan as Newtonsoft writes it (`[-][d.]hh:mm:ss[.fffffff]`, e.g. `00:05:00`). */
export const TIME_SPAN_PATTERN = '^-?(?:\\d+\\.)?\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,7})?$';

/** Standard padded base64 (byte arrays: `iv`, key material). */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

export const guidSchema = { type: 'string', pattern: GUID_PATTERN } as const;
export const dateTimeSchema = { type: 'string', pattern: DATE_TIME_PATTERN } as const;
export const timeSpanSchema = { type: 'string', pattern: TIME_SPAN_PATTERN } as const;
export const base64Schema = { type: 'string', pattern: BASE64_PATTERN } as const;

/** A base URL the runner's raw clients resolve relative paths against: it must end with `/` (§0.6). */
export const baseUrlSchema = { type: 'string', pattern: '^https?://[^\\s]+/$' } as const;
