import { InputError } from '../../core/kernel/cli/index.js';

const NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** Credential names become file names and keychain accounts: a small safe alphabet only. */
export function checkCredentialName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw new InputError(`invalid credential name '${name}': use lower-case letters, digits, '.', '_' and '-'`);
  }
  return name;
}
