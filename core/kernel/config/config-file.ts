import { readFileSync, statSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from '../errors.js';
import { OperatorConfigSchema, type OperatorConfig } from './operator-schema.js';
import { formatSchemaErrors } from './schema-errors.js';
import { compileSchema } from './validator.js';

const validator = compileSchema<OperatorConfig>(OperatorConfigSchema);

/** The file's permission bits must be exactly 0600: it may hold sealed secrets and rules. */
export function checkOwnerOnly(path: string, mode: number, what = 'config file'): void {
  const bits = mode & 0o777;
  if (bits !== 0o600) {
    throw new ConfigError(
      `${what} ${path} has mode ${bits.toString(8).padStart(4, '0')}; it must be 0600 (owner read/write only). Fix it with: chmod 600 ${path}`,
    );
  }
}

/** Parses and validates operator configuration text; every problem is listed, each naming the file and key. */
export function parseOperatorConfig(path: string, text: string): OperatorConfig {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const firstLine = error.message.split('\n')[0] ?? error.message;
      throw new ConfigError(`${path}:${error.line}:${error.column}: invalid TOML: ${firstLine}`, { cause: error });
    }
    throw error;
  }
  const validate = validator();
  if (!validate(data)) {
    const problems = formatSchemaErrors(validate.errors ?? [], data);
    throw new ConfigError(`${path}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`, {
      details: { file: path, problems },
    });
  }
  return data;
}

/** Reads the operator config file. A missing optional file is an empty configuration. */
export function readOperatorConfig(path: string, required: boolean): OperatorConfig {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (required) throw new ConfigError(`config file ${path} (from SVC_CONFIG) does not exist`);
      return {};
    }
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`, { cause: error });
  }
  checkOwnerOnly(path, mode);
  return parseOperatorConfig(path, readFileSync(path, 'utf8'));
}
