// core/protocol: the runner's wire types and codecs, shared by the server plugin and svc-runner.
// One folder per concern; this file is the only way in from outside core/protocol.

// Shared JSON plumbing: value types, encode/decode options, the error the codecs raise.
export type { DecodeOptions, EncodeOptions, JsonObject, JsonPrimitive, JsonValue, WireFormatErrorCode, WireStyle } from './wire/index.js';
export { MAX_WIRE_DEPTH, WireFormatError } from './wire/index.js';

// TemplateToken (steps' inputs/env, conditions, job outputs, defaults, containers, ...).
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
  TokenTypeCode,
} from './template-token/index.js';
export {
  TokenType,
  basicExpressionToken,
  booleanToken,
  decodeTemplateToken,
  encodeTemplateToken,
  hasPosition,
  insertExpressionToken,
  isExpressionToken,
  isLiteralToken,
  isScalarToken,
  isTokenTypeCode,
  mappingToken,
  nullToken,
  numberToken,
  positionOf,
  sequenceToken,
  stringToken,
} from './template-token/index.js';

// PipelineContextData (the job message's contextData and every expression context).
export type {
  AnyDictionaryContextData,
  ArrayContextData,
  BooleanContextData,
  CaseSensitiveDictionaryContextData,
  ContextDataEntry,
  ContextDataTypeCode,
  DictionaryContextData,
  NumberContextData,
  PipelineContextData,
  StringContextData,
} from './context-data/index.js';
export {
  ContextDataType,
  contextArray,
  contextBoolean,
  contextCaseSensitiveDictionary,
  contextDictionary,
  contextNumber,
  contextString,
  decodeContextData,
  encodeContextData,
  foldContextKey,
  formatRunnerNumber,
  parseRunnerNumber,
  fromContextData,
  getContextValue,
  hasContextKey,
  isDictionaryContextData,
  setContextValue,
  toContextData,
} from './context-data/index.js';
