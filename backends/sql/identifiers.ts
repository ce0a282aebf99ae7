import { InputError } from '../../core/kernel/index.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL truncates longer names silently (NAMEDATALEN - 1); we refuse them instead. */
const MAX_IDENTIFIER_LENGTH = 63;

/**
 * Table and column names reach SQL as identifiers, never as values, so they are checked here:
 * letters, digits and underscores, not starting with a digit, at most 63 characters.
 */
export function assertIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name) || name.length > MAX_IDENTIFIER_LENGTH) {
    throw new InputError(
      `${what} ${JSON.stringify(name)} is not a valid SQL identifier (letters, digits and underscores, not starting with a digit, at most ${MAX_IDENTIFIER_LENGTH} characters)`,
      { code: 'invalid_identifier', details: { what, name } },
    );
  }
  return name;
}

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && name.length <= MAX_IDENTIFIER_LENGTH;
}
