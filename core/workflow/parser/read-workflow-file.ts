/**
 * One workflow file → template tokens, with GitHub's file-level checks around the parser's
 * schema-driven template reader: file size, YAML as GitHub reads it (yaml/), result size, and the
 * length of expressions the reader assembles from several `${{ }}` (fix "format-expression-length":
 * GitHub validates the combined `format(...)` too, the parser only each part).
 */
import { readTemplate } from '@actions/workflow-parser/templates/template-reader';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type {
  BasicExpressionToken,
  MappingToken,
  SequenceToken,
  TemplateToken,
} from '@actions/workflow-parser/templates/tokens/index';
import { MAX_EXPRESSION_LENGTH } from './expression-error-message.js';
import type { ParseContext } from './parse-context.js';
import { MAX_OBJECT_SIZE_EXCEEDED, stringBytes, tokenBytes } from './template-memory.js';
import type { TemplateMemory } from './template-memory.js';
import type { WorkflowFile } from './types.js';
import { parseYaml } from './yaml/yaml-document.js';
import { YamlObjectReader } from './yaml/yaml-object-reader.js';

/**
 * Fix "relaxed-events" (1/2): the parser reads workflows against `workflow-root-strict`, whose
 * `on:` schema is the language service's; GitHub's parser reads the same schema file's
 * `workflow-root`, which accepts any event configuration (an empty `inputs:`, unknown keys).
 */
const GITHUB_ROOT = 'workflow-root';
const STRICT_ROOT = 'workflow-root-strict';

export interface ReadLimits {
  /** Validate `on:` as strictly as the language service does (see LoadWorkflowOptions). */
  readonly strictEvents: boolean;
  readonly maxFileSize: number;
  readonly maxDepth: number;
  readonly allowAnchors: boolean;
}

/** The file's root token, or undefined when it could not be read (errors are in the context). */
export function readWorkflowFile(
  context: ParseContext,
  file: WorkflowFile,
  limits: ReadLimits,
  memory: TemplateMemory,
): TemplateToken | undefined {
  const known = context.getFileTable().length;
  const fileId = context.getFileId(file.name);
  if (context.getFileTable().length > known && !memory.add(stringBytes(file.name))) {
    context.collector.addUnplaced(MAX_OBJECT_SIZE_EXCEEDED);
    return undefined;
  }
  if (file.content.length > limits.maxFileSize) {
    context.collector.add(
      { file: file.name, printPosition: false },
      `The maximum file size of ${limits.maxFileSize} characters has been exceeded`,
    );
    return undefined;
  }

  const parsed = parseYaml(file.content);
  if (parsed.document.errors.length > 0) {
    for (const error of parsed.document.errors) {
      const [start] = error.linePos ?? [];
      context.error(fileId, error.message, start ? { start: { line: start.line, column: start.col }, end: { line: start.line, column: start.col } } : undefined);
    }
    return undefined;
  }

  const reader = new YamlObjectReader(fileId, parsed, limits);
  const root = readTemplate(context, limits.strictEvents ? STRICT_ROOT : GITHUB_ROOT, reader, fileId);
  if (root === undefined) return undefined;
  if (!memory.add(tokenBytes(root))) {
    context.error(fileId, MAX_OBJECT_SIZE_EXCEEDED);
    return undefined;
  }
  checkFormatLengths(context, root);
  return root;
}

function checkFormatLengths(context: ParseContext, root: TemplateToken): void {
  const stack: TemplateToken[] = [root];
  for (let token = stack.pop(); token !== undefined; token = stack.pop()) {
    if (token.templateTokenType === TokenType.Sequence) {
      for (const item of token as SequenceToken) stack.push(item);
    } else if (token.templateTokenType === TokenType.Mapping) {
      for (const pair of token as MappingToken) stack.push(pair.key, pair.value);
    } else if (token.templateTokenType === TokenType.BasicExpression) {
      const expression = (token as BasicExpressionToken).expression;
      if (expression.length > MAX_EXPRESSION_LENGTH && expression.startsWith('format(')) {
        const file = token.file === undefined ? undefined : context.getFileName(token.file);
        context.collector.addInDocumentOrder(
          { ...(file === undefined ? {} : { file }), ...(token.line === undefined ? {} : { line: token.line, column: token.col ?? 0 }) },
          `Exceeded max expression length ${MAX_EXPRESSION_LENGTH}`,
        );
      }
    }
  }
}
