/**
 * Loading an action's metadata file: YAML → tokens checked against the action schema of
 * `@actions/workflow-parser` (its lenient `action-root`, the one the runner uses: unknown
 * top-level keys are fine, a composite run step needs `shell`) → the action model. Problems come
 * back as a list with file, line and column, worded like the runner's; error texts are not
 * shortened (the runner keeps them whole for action files).
 */
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TemplateTokenError } from '@actions/workflow-parser/templates/tokens/template-token';
import { readTemplateTokens, TemplateErrorList, type TemplateError } from '../templates/index.js';
import type { ActionManifest } from './action-types.js';
import { convertAction } from './convert-action.js';

/** The file names the runner looks for, in its order. */
export const ACTION_FILE_NAMES = ['action.yml', 'action.yaml'] as const;

export interface ParseActionOptions {
  /** How errors name the file, e.g. `actions/checkout/v4/action.yml` (the runner's relative path). */
  readonly fileName: string;
}

export interface ParseActionResult {
  /** Undefined when there are errors. */
  readonly manifest: ActionManifest | undefined;
  readonly errors: readonly TemplateError[];
  /** The raw token tree (undefined when the YAML could not be read). */
  readonly token: TemplateToken | undefined;
  /** File names by token file id, for evaluating the manifest's tokens later. */
  readonly fileTable: readonly string[];
}

export function parseActionManifest(content: string, options: ParseActionOptions): ParseActionResult {
  const read = readTemplateTokens(content, { fileName: options.fileName, schema: 'action', maxErrorLength: 0 });
  const { token, fileTable } = read;
  if (token === undefined || read.errors.length > 0) return { manifest: undefined, errors: read.errors, token, fileTable };
  const errors = new TemplateErrorList(fileTable, 0);
  let manifest: ActionManifest | undefined;
  try {
    manifest = convertAction(token, options.fileName, errors);
  } catch (error) {
    // A value of the wrong type where the runner asserts one.
    if (!(error instanceof TemplateTokenError)) throw error;
    errors.add(error.token, error);
  }
  const problems = errors.toError()?.errors ?? [];
  return { manifest: problems.length > 0 ? undefined : manifest, errors: problems, token, fileTable };
}
