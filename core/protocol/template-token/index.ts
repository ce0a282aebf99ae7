export type { TokenTypeCode } from './token-type.js';
export { TokenType, isTokenTypeCode } from './token-type.js';
export type {
  BasicExpressionToken,
  BooleanToken,
  ExpressionToken,
  InsertExpressionToken,
  LiteralToken,
  MappingEntry,
  MappingToken,
  NullToken,
  NumberToken,
  ScalarToken,
  SequenceToken,
  StringToken,
  TemplateToken,
  TokenPosition,
} from './template-token.js';
export {
  basicExpressionToken,
  booleanToken,
  hasPosition,
  insertExpressionToken,
  isExpressionToken,
  isLiteralToken,
  isScalarToken,
  mappingToken,
  nullToken,
  numberToken,
  positionOf,
  sequenceToken,
  stringToken,
} from './template-token.js';
export { decodeTemplateToken } from './decode-template-token.js';
export { encodeTemplateToken } from './encode-template-token.js';
