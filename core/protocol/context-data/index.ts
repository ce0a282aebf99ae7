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
} from './context-data.js';
export {
  ContextDataType,
  contextArray,
  contextBoolean,
  contextNumber,
  contextString,
  isDictionaryContextData,
} from './context-data.js';
export {
  contextCaseSensitiveDictionary,
  contextDictionary,
  foldContextKey,
  getContextValue,
  hasContextKey,
  setContextValue,
} from './dictionary.js';
export { decodeContextData } from './decode-context-data.js';
export { encodeContextData } from './encode-context-data.js';
export { fromContextData, toContextData } from './plain-conversion.js';
export { formatRunnerNumber, parseRunnerNumber } from './number-format.js';
