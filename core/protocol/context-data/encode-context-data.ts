import type { EncodeOptions, JsonValue, WireStyle } from '../wire/index.js';
import { wireNumber } from '../wire/index.js';
import type { PipelineContextData } from './context-data.js';
import { ContextDataType } from './context-data.js';

/**
 * Writes PipelineContextData as the runner's PipelineContextDataJsonConverter does: strings,
 * booleans and numbers as bare JSON values, null as `null`, arrays as `{"t":1,"a":[…]}`,
 * dictionaries as `{"t":2|5,"d":[{"k":…,"v":…}]}`. An empty `a`/`d` is left out in the `runner`
 * style and written as `[]` in the `github` style. Non-finite numbers become the strings
 * Newtonsoft writes for them.
 */
export function encodeContextData(data: PipelineContextData | null, options: EncodeOptions = {}): JsonValue {
  return encode(data, options.style ?? 'runner');
}

function encode(data: PipelineContextData | null, style: WireStyle): JsonValue {
  if (data === null) return null;
  switch (data.type) {
    case ContextDataType.String:
    case ContextDataType.Boolean:
      return data.value;
    case ContextDataType.Number:
      return wireNumber(data.value);
    case ContextDataType.Array:
      return data.items.length === 0 && style === 'runner'
        ? { t: data.type }
        : { t: data.type, a: data.items.map((item) => encode(item, style)) };
    case ContextDataType.Dictionary:
    case ContextDataType.CaseSensitiveDictionary:
      return data.entries.length === 0 && style === 'runner'
        ? { t: data.type }
        : { t: data.type, d: data.entries.map((entry) => ({ k: entry.key, v: encode(entry.value, style) })) };
  }
}
