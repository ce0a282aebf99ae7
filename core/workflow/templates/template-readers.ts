/**
 * Reading evaluated tokens as the types a field needs, with the runner's wording when the type
 * is wrong (`Unexpected type 'MappingToken' encountered while reading 'step name'. The type
 * 'StringToken' was expected.`). The descriptions the runner uses: `step name`,
 * `step continue-on-error`, `step timeout-minutes`, `environment` (step env), `inputs` (step with),
 * `outputs` (job outputs), `environment.url`, `defaults run`.
 */
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TemplateTokenError } from '@actions/workflow-parser/templates/tokens/template-token';
import { TemplateErrorList } from './template-errors.js';

export interface ReadOptions {
  /** File names by token file id, for error locations. */
  readonly fileTable?: readonly string[];
}

export function readString(token: TemplateToken, description: string, options: ReadOptions = {}): string {
  return reading(options, () => token.assertString(description).value);
}

export function readBoolean(token: TemplateToken, description: string, options: ReadOptions = {}): boolean {
  return reading(options, () => token.assertBoolean(description).value);
}

export function readNumber(token: TemplateToken, description: string, options: ReadOptions = {}): number {
  return reading(options, () => token.assertNumber(description).value);
}

/** A mapping of strings to strings (step `env` and `with`, job `outputs`, `defaults.run`). */
export function readStringMap(
  token: TemplateToken,
  description: string,
  options: ReadOptions = {},
): Record<string, string> {
  return reading(options, () => {
    const mapping: MappingToken = token.assertMapping(description);
    const result: Record<string, string> = {};
    for (const pair of mapping) {
      result[pair.key.assertString(`${description} key`).value] = pair.value.assertString(`${description} value`).value;
    }
    return result;
  });
}

function reading<T>(options: ReadOptions, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof TemplateTokenError)) throw error;
    const errors = new TemplateErrorList(options.fileTable);
    errors.add(error.token, error);
    throw errors.toError() ?? error;
  }
}
