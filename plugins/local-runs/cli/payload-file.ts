import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../../../core/kernel/cli/index.js';

/** The JSON object in `--payload <file>` (relative to `cwd`); any problem names the file. */
export async function readPayloadFile(file: string, cwd: string): Promise<Record<string, unknown>> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`cannot read --payload file ${file} (${code})`, { code: 'invalid_payload', cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`--payload file ${file} is not valid JSON: ${(error as Error).message}`, { code: 'invalid_payload', cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`--payload file ${file} must hold a JSON object (the event payload), not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`, { code: 'invalid_payload' });
  }
  return value as Record<string, unknown>;
}
