/**
 * Turns the package's lexer and parser errors into ours, with the runner's text: the raw token,
 * its 1-based position in the whole expression (the package counts columns per line, and
 * miscounts after a string spanning lines), and the expression.
 */
import type { ExpressionError as PackageExpressionError } from '@actions/expressions';
import type { Token } from '@actions/expressions/lexer';
import { TokenType } from '@actions/expressions/lexer';
import { ExpressionError, locatedMessage, type ExpressionErrorCode } from './errors.js';
import { MAX_EXPRESSION_DEPTH } from './limits.js';

const MAX_DEPTH_TEXT = 'Exceeded max expression depth';

const CODES: ReadonlyMap<string, ExpressionErrorCode> = new Map([
  ['Unexpected symbol', 'unexpected_symbol'],
  ['Unexpected end of expression', 'unexpected_end'],
  ['Unrecognized named-value', 'unrecognized_named_value'],
  ['Unrecognized function', 'unrecognized_function'],
  ['Too few parameters supplied', 'too_few_parameters'],
  ['Too many parameters supplied', 'too_many_parameters'],
  ['Even number of parameters supplied, requires an odd number of parameters', 'even_parameters'],
]);

/** Offset of a token in the text: tokens are separated by the lexer's white space only. */
export function offsetOf(target: Token, tokens: readonly Token[], text: string): number {
  let cursor = 0;
  for (const token of tokens) {
    while (cursor < text.length && ' \r\t\n'.includes(text.charAt(cursor))) cursor++;
    if (token === target) return cursor;
    cursor += token.lexeme.length;
  }
  return cursor;
}

/** The lexer's errors read `Unexpected symbol: 'x'. Located at position N within expression: ...`. */
export function lexingError(error: Error, text: string): ExpressionError {
  const suffix = ` within expression: ${text}`;
  let position: number | undefined;
  if (error.message.endsWith(suffix)) {
    const head = error.message.slice(0, -suffix.length);
    const match = /Located at position (\d+)$/.exec(head);
    if (match) position = Number(match[1]);
  }
  return new ExpressionError('lexing', 'unexpected_symbol', error.message, text, {
    position,
    cause: error,
  });
}

/** A number literal the package's lexer accepted but the runner's does not. */
export function invalidNumberError(token: Token, tokens: readonly Token[], text: string): ExpressionError {
  const position = offsetOf(token, tokens, text) + 1;
  const message = locatedMessage('Unexpected symbol', token.lexeme, position, text);
  return new ExpressionError('lexing', 'unexpected_symbol', message, text, { position });
}

export function parsingError(
  error: PackageExpressionError,
  text: string,
  tokens: readonly Token[],
): ExpressionError {
  // The runner reports the depth limit without a token or position.
  if (error.message.startsWith(MAX_DEPTH_TEXT)) {
    return new ExpressionError('parsing', 'max_depth', `${MAX_DEPTH_TEXT} ${MAX_EXPRESSION_DEPTH}`, text, { cause: error });
  }
  const separator = error.message.indexOf(": '");
  let description = separator < 0 ? error.message : error.message.slice(0, separator);
  const shown = separator < 0 ? '' : error.message.slice(separator + 3, -1);
  let token = findToken(tokens, error, shown);
  // The package blames the end of input as a symbol 'EOF'; the runner says the expression ended.
  if (token?.type === TokenType.EOF) {
    description = 'Unexpected end of expression';
    token = tokens[tokens.indexOf(token) - 1];
  }
  const code = CODES.get(description) ?? 'unexpected_symbol';
  if (token === undefined) {
    return new ExpressionError('parsing', code, description, text, { cause: error });
  }
  const position = offsetOf(token, tokens, text) + 1;
  return new ExpressionError('parsing', code, locatedMessage(description, token.lexeme, position, text), text, {
    position,
    cause: error,
  });
}

/**
 * The package's error carries the token's line/column and its display text; the end-of-input
 * token can share its position with the last real token, so the text decides between them.
 */
function findToken(
  tokens: readonly Token[],
  error: PackageExpressionError,
  shown: string,
): Token | undefined {
  const candidates = tokens.filter(
    (token) =>
      token.range.start.line === error.pos.line && token.range.start.column === error.pos.column,
  );
  return candidates.find((token) => displayText(token) === shown) ?? candidates[0];
}

/** How the package shows a token in its messages. */
function displayText(token: Token): string {
  if (token.type === TokenType.EOF) return 'EOF';
  if (token.type === TokenType.STRING) return String(token.value);
  return token.lexeme;
}
