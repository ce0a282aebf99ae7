/**
 * Between expression values and the parser's template tokens: an expression's result becomes a
 * token tree at the place of the expression (objects → mappings, arrays → sequences, numbers
 * stay numbers), and a fully evaluated token tree reads back as plain data.
 */
import {
  BooleanToken,
  MappingToken,
  NullToken,
  NumberToken,
  SequenceToken,
  StringToken,
} from '@actions/workflow-parser/templates/tokens/index';
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/literal-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TemplateTokenError } from '@actions/workflow-parser/templates/tokens/template-token';
import { TokenType, tokenTypeName } from '@actions/workflow-parser/templates/tokens/types';
import { toExpressionString, type ExpressionObject, type ExpressionValue } from '../expressions/index.js';

/** The token for a value, placed where `at` is (file and range), without schema information. */
export function valueToToken(value: ExpressionValue, at: TemplateToken | undefined): TemplateToken {
  const file = at?.file;
  const range = at?.range;
  if (value === null) return new NullToken(file, range, undefined);
  switch (typeof value) {
    case 'boolean':
      return new BooleanToken(file, range, value, undefined);
    case 'number':
      return new NumberToken(file, range, value, undefined);
    case 'string':
      return new StringToken(file, range, value, undefined);
  }
  if (isArray(value)) {
    const sequence = new SequenceToken(file, range, undefined);
    for (const item of value) sequence.add(valueToToken(item, at));
    return sequence;
  }
  const mapping = new MappingToken(file, range, undefined);
  for (const [key, item] of Object.entries(value)) {
    mapping.add(new StringToken(file, range, key, undefined), valueToToken(item, at));
  }
  return mapping;
}

/**
 * The plain value of an evaluated token tree. Mapping keys are read as strings. An expression
 * left in the tree (not evaluated) is an error worded like the runner's.
 */
export function tokenToValue(token: TemplateToken, description = 'value'): ExpressionValue {
  switch (token.templateTokenType) {
    case TokenType.Null:
      return null;
    case TokenType.Boolean:
      return (token as BooleanToken).value;
    case TokenType.Number:
      return (token as NumberToken).value;
    case TokenType.String:
      return (token as StringToken).value;
    case TokenType.Sequence:
      return [...(token as SequenceToken)].map((item) => tokenToValue(item, description));
    case TokenType.Mapping: {
      const result: Record<string, ExpressionValue> = {};
      for (const pair of token as MappingToken) {
        if (pair.key.isExpression) throw unexpectedType(pair.key, description);
        result[literalText(pair.key as LiteralToken)] = tokenToValue(pair.value, description);
      }
      return result;
    }
    default:
      throw unexpectedType(token, description);
  }
}

/**
 * A literal as the runner writes it into a string: numbers in the runner's format (`1E+20`,
 * not JavaScript's `100000000000000000000`), null as empty.
 */
export function literalText(literal: LiteralToken): string {
  if (literal.templateTokenType === TokenType.Number) return toExpressionString((literal as NumberToken).value);
  if (literal.templateTokenType === TokenType.Null) return '';
  return literal.toString();
}

function unexpectedType(token: TemplateToken, description: string): TemplateTokenError {
  return new TemplateTokenError(
    `Unexpected type '${tokenTypeName(token.templateTokenType)}' encountered while reading '${description}'.`,
    token,
  );
}

function isArray(value: readonly ExpressionValue[] | ExpressionObject): value is readonly ExpressionValue[] {
  return Array.isArray(value);
}
