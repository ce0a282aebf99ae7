/**
 * YAML text → the parser's raw template tokens, checked against one of the parser's schemas,
 * with the parser's own template reader and YAML reader. Action manifests are read with it; for
 * workflow files use the parser module (it reads YAML the way GitHub does and adds GitHub's file
 * checks); this is the plain reading, enough for tests and fixtures.
 */
import { TemplateContext, TemplateValidationErrors } from '@actions/workflow-parser/templates/template-context';
import { readTemplate } from '@actions/workflow-parser/templates/template-reader';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import { NoOperationTraceWriter } from '@actions/workflow-parser/templates/trace-writer';
import { YamlObjectReader } from '@actions/workflow-parser/workflows/yaml-object-reader';
import { ACTION_ROOT, WORKFLOW_ROOT } from './field-contexts.js';
import { parserSchema, type ParserSchemaKind } from './parser-schema.js';
import { TemplateErrorList, type TemplateError } from './template-errors.js';

export interface ReadTemplateOptions {
  /** The name errors give the file (`.github/workflows/ci.yml`, `owner/repo/v1/action.yml`). */
  readonly fileName: string;
  /** Which schema; default `workflow`. */
  readonly schema?: ParserSchemaKind;
  /** The root definition; default `workflow-root` or `action-root`. */
  readonly root?: string;
  /** Longest error text kept (then `[...]`); 0 for no limit. Default 500. */
  readonly maxErrorLength?: number;
}

export interface ReadTemplateResult {
  /** The token tree; undefined when the YAML could not be read at all. */
  readonly token: TemplateToken | undefined;
  readonly errors: readonly TemplateError[];
  /** File names by token file id (the file read is id 1). */
  readonly fileTable: readonly string[];
}

export function readTemplateTokens(content: string, options: ReadTemplateOptions): ReadTemplateResult {
  const kind = options.schema ?? 'workflow';
  const fileTable = [options.fileName];
  const errors = new TemplateErrorList(fileTable, options.maxErrorLength);
  const context = new CollectingContext(kind, errors);
  const fileId = context.getFileId(options.fileName);
  const reader = new YamlObjectReader(fileId, content);
  if (reader.errors.length > 0) {
    for (const error of reader.errors) context.error(fileId, error.message, error.range);
    return { token: undefined, errors: errorsOf(errors), fileTable };
  }
  const root = options.root ?? (kind === 'workflow' ? WORKFLOW_ROOT : ACTION_ROOT);
  const token = readTemplate(context, root, reader, fileId);
  return { token, errors: errorsOf(errors), fileTable };
}

function errorsOf(errors: TemplateErrorList): readonly TemplateError[] {
  return errors.toError()?.errors ?? [];
}

/** The parser's context, with its errors kept structured in our list. */
class CollectingContext extends TemplateContext {
  readonly #errors: TemplateErrorList;

  constructor(kind: ParserSchemaKind, errors: TemplateErrorList) {
    super(new TemplateValidationErrors(), parserSchema(kind), new NoOperationTraceWriter());
    this.#errors = errors;
  }

  override error(tokenOrFileId: TemplateToken | number | undefined, err: unknown, tokenRange?: TokenRange): void {
    if (typeof tokenOrFileId === 'object') {
      this.#errors.add(tokenOrFileId, err);
      return;
    }
    const start = tokenRange?.start;
    this.#errors.add({ file: tokenOrFileId, line: start?.line, col: start?.column }, err);
  }
}
