/**
 * Fix "expression-error-wording": GitHub reports an invalid `${{ }}` expression as
 *   `Unrecognized named-value: 'secrets'. Located at position 1 within expression: secrets.foo`
 * while @actions/expressions stops after `Unrecognized named-value: 'secrets'`, and reports an
 * expression that ends too early (`contains('a', 'b'`) as an unexpected `EOF` symbol where GitHub
 * names the last real token: `Unexpected end of expression: ''b''. Located at position 15 ...`.
 * The template reader hands us the string token and the range of the `${{ ... }}` it failed on;
 * from those we recover the expression text and rebuild GitHub's message.
 */
import { ExpressionError, Lexer } from '@actions/expressions';
import { TokenType, tokenString } from '@actions/expressions/lexer';
import type { Token } from '@actions/expressions/lexer';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';

export const MAX_EXPRESSION_LENGTH = 21000;
const OPEN = '${{';

/** GitHub's message for an expression error, or undefined to keep the parser's own. */
export function expressionErrorMessage(err: unknown, token: TemplateToken | undefined, range: TokenRange): string | undefined {
  if (err instanceof Error && err.message === 'ErrorExceededMaxLength') {
    return `Exceeded max expression length ${MAX_EXPRESSION_LENGTH}`;
  }
  if (!(err instanceof ExpressionError) || token === undefined) return undefined;
  // The failing token is private in the typings; it is the documented payload of the error.
  const failed = (err as unknown as { tok?: Token }).tok;
  const expression = locateExpression(token, range);
  if (failed === undefined || expression === undefined) return undefined;

  if (failed.type === TokenType.EOF) {
    const tokens = new Lexer(expression).lex().tokens;
    const last = tokens[tokens.length - 2];
    return last === undefined ? 'Unexpected end of expression' : located('Unexpected end of expression', last, expression);
  }
  const shown = `: '${tokenString(failed)}'`;
  const description = err.message.endsWith(shown) ? err.message.slice(0, -shown.length) : err.message;
  return located(description, failed, expression);
}

function located(description: string, token: Token, expression: string): string {
  const index = offsetOf(expression, token.range.start.line, token.range.start.column);
  return `${description}: '${token.lexeme}'. Located at position ${index + 1} within expression: ${expression}`;
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let i = 0; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  return offset + column;
}

interface SourceString {
  readonly value: string;
  readonly source?: string | undefined;
}

/**
 * The trimmed text of the `${{ ... }}` that starts at `range`, inverting how the template reader
 * computed that range from the token (single line: columns shifted by quoting; block scalars:
 * a line offset into the token's source).
 */
export function locateExpression(token: TemplateToken, range: TokenRange): string | undefined {
  const literal = token as unknown as Partial<SourceString>;
  if (typeof literal.value !== 'string' || token.range === undefined) return undefined;
  const value = literal.value;
  const singleLine = token.range.start.line === token.range.end.line;
  let raw: string;
  let start: number;
  if (singleLine) {
    raw = value;
    const shift = (literal.source ?? raw).indexOf(OPEN) - raw.indexOf(OPEN);
    start = range.start.column - token.range.start.column - shift;
  } else {
    raw = literal.source ?? value;
    let lineStart = -1;
    for (let i = 1; i < range.start.line - token.range.start.line; i++) lineStart = raw.indexOf('\n', lineStart + 1);
    start = lineStart + range.start.column;
  }
  if (start < 0 || !raw.startsWith(OPEN, start)) return undefined;
  const end = closingBraces(raw, start + OPEN.length);
  return end === undefined ? undefined : raw.slice(start + OPEN.length, end - 1).trim();
}

/** Index of the second `}` of the closing `}}`, skipping quoted strings as the reader does. */
function closingBraces(raw: string, from: number): number | undefined {
  let inString = false;
  for (let i = from; i < raw.length; i++) {
    if (raw[i] === "'") inString = !inString;
    else if (!inString && raw[i] === '}' && raw[i - 1] === '}') return i;
  }
  return undefined;
}
