import type { DecodeOptions } from '../wire/index.js';
import {
  MAX_WIRE_DEPTH,
  WireFormatError,
  invalid,
  isJsonObject,
  readArray,
  readBoolean,
  readMember,
  readNumber,
  readString,
  readTypeCode,
} from '../wire/index.js';
import type { ContextDataEntry, PipelineContextData } from './context-data.js';
import { ContextDataType, contextArray, contextBoolean, contextNumber, contextString } from './context-data.js';

/**
 * Reads PipelineContextData from parsed JSON the way the runner's
 * PipelineContextDataJsonConverter does: bare JSON strings, booleans and numbers are values of
 * those types, `null` is null; an object without `t` is a string read from `s`; `{"t":3,"b":…}`
 * and `{"t":4,"n":…}` are accepted; absent `a`/`d` mean empty; member names match
 * case-insensitively; an entry without `v` has a null value.
 *
 * Dictionary entries are kept as they come, duplicates included (the runner keeps them too and
 * only fails when a key is looked up; see dictionary.ts).
 *
 * Throws a WireFormatError where the runner would fail or silently drop the value: an unknown
 * `t` (the runner throws), a non-integer `t` or a JSON array (the runner drops them), an entry
 * without a string `k`, a member of the wrong JSON type.
 */
export function decodeContextData(json: unknown, options: DecodeOptions = {}): PipelineContextData | null {
  return decode(json, options.path ?? '$', 0);
}

function decode(json: unknown, path: string, depth: number): PipelineContextData | null {
  if (depth > MAX_WIRE_DEPTH) {
    throw new WireFormatError('too_deep', path, `context data nested deeper than ${MAX_WIRE_DEPTH} levels`);
  }
  switch (typeof json) {
    case 'string':
      return contextString(json);
    case 'boolean':
      return contextBoolean(json);
    case 'number':
      return contextNumber(json);
    default:
      break;
  }
  if (json === null) return null;
  if (!isJsonObject(json)) throw invalid(path, 'context data (a JSON scalar or object)', json);

  const code = readTypeCode(json, 't', path) ?? ContextDataType.String;
  switch (code) {
    case ContextDataType.String:
      return contextString(readString(json, 's', path));
    case ContextDataType.Array:
      return contextArray(readArray(json, 'a', path).map((item, i) => decode(item, `${path}.a[${i}]`, depth + 1)));
    case ContextDataType.Dictionary:
    case ContextDataType.CaseSensitiveDictionary:
      return {
        type: code,
        entries: readArray(json, 'd', path).map((entry, i) => decodeEntry(entry, `${path}.d[${i}]`, depth + 1)),
      };
    case ContextDataType.Boolean:
      return contextBoolean(readBoolean(json, 'b', path));
    case ContextDataType.Number:
      return contextNumber(readNumber(json, 'n', path));
    default:
      throw new WireFormatError('unknown_type', `${path}.t`, `unknown context data type ${code}`);
  }
}

function decodeEntry(json: unknown, path: string, depth: number): ContextDataEntry {
  if (!isJsonObject(json)) throw invalid(path, 'a dictionary entry object with k and v', json);
  const key = readMember(json, 'k');
  if (typeof key !== 'string') throw invalid(`${path}.k`, 'a string key', key);
  const value = readMember(json, 'v');
  return { key, value: value === undefined ? null : decode(value, `${path}.v`, depth + 1) };
}
