/**
 * The parser's template tokens (`@actions/workflow-parser` classes) → the runner's TemplateToken
 * model (core/protocol), which the job message carries: literals, `${{ }}` expressions (the text
 * without the braces; strings mixing text and expressions are already `format(...)` in the
 * parser), `${{ insert }}` keys, sequences and mappings, each with the file id (1-based, into the
 * file table the load returned), line and column the parser recorded. Schema information is left
 * behind: the runner re-validates against its own schema.
 */
import type { BasicExpressionToken as ParserExpression } from '@actions/workflow-parser/templates/tokens/basic-expression-token';
import type {
  BooleanToken as ParserBoolean,
  MappingToken as ParserMapping,
  NumberToken as ParserNumber,
  SequenceToken as ParserSequence,
  StringToken as ParserString,
} from '@actions/workflow-parser/templates/tokens/index';
import type { TemplateToken as ParserToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TokenType as ParserTokenType } from '@actions/workflow-parser/templates/tokens/types';
import {
  basicExpressionToken,
  booleanToken,
  insertExpressionToken,
  isScalarToken,
  mappingToken,
  nullToken,
  numberToken,
  sequenceToken,
  stringToken,
  type MappingEntry,
  type ScalarToken,
  type TemplateToken,
  type TokenPosition,
  TokenType,
} from '../../protocol/index.js';

/** Where the parser says a token starts: file id, 1-based line and column (each only when known). */
export function tokenPosition(token: ParserToken): TokenPosition {
  const { file, line, col } = token;
  return {
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(col === undefined ? {} : { col }),
  };
}

/**
 * One parser token tree as the runner's model. Throws a TypeError for a mapping key that is not
 * a scalar (the parser never makes one) or a token type the runner does not know.
 */
export function toProtocolToken(token: ParserToken): TemplateToken {
  const position = tokenPosition(token);
  switch (token.templateTokenType) {
    case ParserTokenType.String:
      return stringToken((token as ParserString).value, position);
    case ParserTokenType.Boolean:
      return booleanToken((token as ParserBoolean).value, position);
    case ParserTokenType.Number:
      return numberToken((token as ParserNumber).value, position);
    case ParserTokenType.Null:
      return nullToken(position);
    case ParserTokenType.BasicExpression:
      return basicExpressionToken((token as ParserExpression).expression, position);
    case ParserTokenType.InsertExpression:
      return insertExpressionToken(position);
    case ParserTokenType.Sequence:
      return sequenceToken([...(token as ParserSequence)].map(toProtocolToken), position);
    case ParserTokenType.Mapping: {
      const entries: MappingEntry[] = [...(token as ParserMapping)].map((pair) => ({
        key: toProtocolScalar(pair.key),
        value: toProtocolToken(pair.value),
      }));
      return mappingToken(entries, position);
    }
    default:
      throw new TypeError(`template token type ${token.templateTokenType} has no runner equivalent`);
  }
}

/** A scalar (a mapping key, a step's `name:`, `if:`, ...) as the runner's model. */
export function toProtocolScalar(token: ParserToken): ScalarToken {
  const converted = toProtocolToken(token);
  if (!isScalarToken(converted)) {
    throw new TypeError(`expected a scalar token at line ${token.line ?? '?'}, got a ${converted.type === TokenType.Sequence ? 'sequence' : 'mapping'}`);
  }
  return converted;
}
