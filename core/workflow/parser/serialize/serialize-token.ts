/**
 * A template token as JSON, the way GitHub's parser serializes it: a literal without a source
 * position is a bare JSON value, anything else an object `{type, file, line, col, <payload>}`.
 * `includeSource: false` drops every position first (GitHub's conformance output does that).
 * JSON has no spelling for non-finite numbers; they are written as .NET does: "Infinity",
 * "-Infinity", "NaN".
 */
import type {
  BasicExpressionToken,
  BooleanToken,
  InsertExpressionToken,
  MappingToken,
  NumberToken,
  SequenceToken,
  StringToken,
  TemplateToken,
} from '@actions/workflow-parser/templates/tokens/index';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function serializeToken(token: TemplateToken, includeSource: boolean): Json {
  const head: { [key: string]: Json } = { type: token.templateTokenType };
  const positioned = includeSource && (token.file !== undefined || token.range !== undefined);
  if (positioned) {
    if (token.file !== undefined) head['file'] = token.file;
    if (token.line !== undefined) head['line'] = token.line;
    if (token.col !== undefined) head['col'] = token.col;
  }
  switch (token.templateTokenType) {
    case TokenType.Null:
      return positioned ? head : null;
    case TokenType.Boolean: {
      const value = (token as BooleanToken).value;
      return positioned ? { ...head, bool: value } : value;
    }
    case TokenType.Number: {
      const value = serializeNumber((token as NumberToken).value);
      return positioned ? { ...head, num: value } : value;
    }
    case TokenType.String: {
      const value = (token as StringToken).value;
      return positioned ? { ...head, lit: value } : value;
    }
    case TokenType.BasicExpression: {
      const expression = (token as BasicExpressionToken).expression;
      return expression === '' ? head : { ...head, expr: expression };
    }
    case TokenType.InsertExpression:
      return { ...head, directive: (token as InsertExpressionToken).directive ?? 'insert' };
    case TokenType.Sequence: {
      const items = [...(token as SequenceToken)].map((item) => serializeToken(item, includeSource));
      return items.length === 0 ? head : { ...head, seq: items };
    }
    case TokenType.Mapping: {
      const pairs = [...(token as MappingToken)].map((pair) => ({
        Key: serializeToken(pair.key, includeSource),
        Value: serializeToken(pair.value, includeSource),
      }));
      return pairs.length === 0 ? head : { ...head, map: pairs };
    }
    default:
      return null;
  }
}

export function serializeNumber(value: number): number | string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  return value;
}
