/**
 * The parser's TemplateContext, with errors routed into our ErrorCollector (GitHub's limits and
 * wording, structured positions) instead of the parser's flat string list.
 */
import { TemplateContext, TemplateValidationErrors } from '@actions/workflow-parser/templates/template-context';
import type { TemplateSchema } from '@actions/workflow-parser/templates/schema/template-schema';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import { NoOperationTraceWriter } from '@actions/workflow-parser/templates/trace-writer';
import type { ErrorCollector } from './error-collector.js';
import { correctMessage } from './convert/message-corrections.js';
import { expressionErrorMessage } from './expression-error-message.js';

export class ParseContext extends TemplateContext {
  readonly collector: ErrorCollector;
  /** String tokens that already had a `${{ }}` error: GitHub stops at the first one per value. */
  readonly #expressionFailures = new WeakSet<TemplateToken>();

  constructor(schema: TemplateSchema, collector: ErrorCollector) {
    super(new TemplateValidationErrors(), schema, new NoOperationTraceWriter());
    this.collector = collector;
  }

  override error(tokenOrFileId: TemplateToken | number | undefined, err: unknown, tokenRange?: TokenRange): void {
    if (typeof tokenOrFileId === 'number' || tokenOrFileId === undefined) {
      // Raised for a whole file (YAML syntax, reader limits): GitHub prints the file name only.
      this.collector.add(
        {
          ...this.#fileOf(tokenOrFileId),
          ...(tokenRange ? { line: tokenRange.start.line, column: tokenRange.start.column } : {}),
          printPosition: false,
        },
        messageOf(err),
      );
      return;
    }
    const token = tokenOrFileId;
    let message = correctMessage(messageOf(err));
    // The template reader passes a range only for errors inside one `${{ }}` of a string.
    if (tokenRange !== undefined) {
      if (this.#expressionFailures.has(token)) return;
      this.#expressionFailures.add(token);
      message = expressionErrorMessage(err, token, tokenRange) ?? message;
    }
    this.collector.add(
      {
        ...this.#fileOf(token.file),
        ...(token.line === undefined ? {} : { line: token.line }),
        ...(token.col === undefined ? {} : { column: token.col }),
      },
      message,
    );
  }

  #fileOf(fileId: number | undefined): { file?: string } {
    const file = fileId === undefined ? undefined : this.getFileName(fileId);
    return file === undefined ? {} : { file };
  }
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : String(err);
}
