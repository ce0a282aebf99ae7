export type { JsonObject, JsonPrimitive, JsonValue } from './json-value.js';
export { isJsonObject, jsonObjectFromEntries } from './json-value.js';
export type { WireFormatErrorCode } from './wire-format-error.js';
export { MAX_WIRE_DEPTH, WireFormatError, describeValue, invalid } from './wire-format-error.js';
export type { DecodeOptions, EncodeOptions, WireStyle } from './wire-style.js';
export {
  readArray,
  readBoolean,
  readMember,
  readNumber,
  readOptionalInt32,
  readString,
  readTypeCode,
} from './wire-object.js';
export { toWireNumber, wireNumber } from './wire-number.js';
export { expandRoute, rawUrl, vssUrl, type RouteValues } from './vss-url.js';
