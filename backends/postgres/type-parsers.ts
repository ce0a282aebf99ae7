import pg from 'pg';
import type { CustomTypesConfig } from 'pg';

const INT8_OID = 20;

/**
 * Epoch milliseconds, counters and ids are int8 columns; as JavaScript numbers they compare and
 * add like the SQLite store's values. A value beyond 2^53 would silently lose digits, so it
 * fails loudly instead.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`int8 value ${text} does not fit a JavaScript number exactly`);
  }
  return value;
}

/** Per-pool type parsers (pg's global parser table is shared by every pool in the process). */
export const TYPE_PARSERS: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as CustomTypesConfig['getTypeParser'],
};
