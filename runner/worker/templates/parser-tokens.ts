/**
 * The job message's TemplateTokens (core/protocol) as `@actions/workflow-parser` tokens, which
 * core/workflow's template evaluation walks. The inverse of core/workflow's `toProtocolToken`:
 * file id, line and column carried over (a missing column reads as 0), no schema information
 * (the evaluator gets the definition of the position it evaluates).
 *
 * This belongs beside `toProtocolToken` in core/workflow/wire (as `fromProtocolToken`); it lives
 * here until core/workflow exports it, the runner's only direct use of the parser package.
 */
import {
  BasicExpressionToken,
  BooleanToken,
  InsertExpressionToken,
  MappingToken,
  NullToken,
  NumberToken,
  SequenceToken,
  StringToken,
} from '@actions/workflow-parser/templates/tokens/index';
import type { ScalarToken as ParserScalar } from '@actions/workflow-parser/templates/tokens/scalar-token';
import type { TemplateToken as ParserToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import { TokenType, type TemplateToken, type TokenPosition } from '../../../core/protocol/index.js';

function rangeOf(position: TokenPosition): TokenRange | undefined {
  if (position.line === undefined) return undefined;
  const start = { line: position.line, column: position.col ?? 0 };
  return { start, end: start };
}

export function toParserToken(token: TemplateToken): ParserToken {
  const file = token.file;
  const range = rangeOf(token);
  switch (token.type) {
    case TokenType.String:
      return new StringToken(file, range, token.value, undefined);
    case TokenType.Boolean:
      return new BooleanToken(file, range, token.value, undefined);
    case TokenType.Number:
      return new NumberToken(file, range, token.value, undefined);
    case TokenType.Null:
      return new NullToken(file, range, undefined);
    case TokenType.BasicExpression:
      return new BasicExpressionToken(file, range, token.expression, undefined, undefined, undefined);
    case TokenType.InsertExpression:
      return new InsertExpressionToken(file, range, undefined);
    case TokenType.Sequence: {
      const sequence = new SequenceToken(file, range, undefined);
      for (const item of token.items) sequence.add(toParserToken(item));
      return sequence;
    }
    case TokenType.Mapping: {
      const mapping = new MappingToken(file, range, undefined);
      for (const entry of token.entries) mapping.add(toParserToken(entry.key) as ParserScalar, toParserToken(entry.value));
      return mapping;
    }
  }
}
