import type { JsonValue } from '../wire/index.js';
import { WireFormatError, jsonObjectFromEntries } from '../wire/index.js';
import type { ContextDataEntry, DictionaryContextData, PipelineContextData } from './context-data.js';
import { ContextDataType, contextArray, contextBoolean, contextNumber, contextString } from './context-data.js';
import { foldContextKey } from './dictionary.js';
import { formatShortestNumber } from './number-format.js';

/** Nesting level from which the runner stops converting and keeps the JSON text as a string. */
const MAX_CONVERSION_DEPTH = 100;

/**
 * Plain JSON-like data (an event payload, parsed inputs, `fromJSON` output) to context data, as
 * the runner's `JToken.ToPipelineContextData()` does it: objects become case-insensitive
 * dictionaries (keys equal but for case collapse: the first spelling stays, the last value
 * wins), numbers become doubles, null stays null, and anything nested 100 levels deep is kept as
 * its JSON text (Newtonsoft's, approximately: indented with two spaces).
 *
 * Like JSON.stringify, `undefined` object members are skipped and `undefined` array items
 * become null.
 */
export function toContextData(value: JsonValue | undefined): PipelineContextData | null {
  return convert(value, 1);
}

function convert(value: JsonValue | undefined, depth: number): PipelineContextData | null {
  if (depth >= MAX_CONVERSION_DEPTH) return contextString(textOf(value));
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return contextString(value);
  if (typeof value === 'boolean') return contextBoolean(value);
  if (typeof value === 'number') return contextNumber(value);
  if (Array.isArray(value)) return contextArray(value.map((item: JsonValue | undefined) => convert(item, depth + 1)));

  const entries: ContextDataEntry[] = [];
  const index = new Map<string, number>();
  for (const [key, member] of Object.entries(value as Readonly<Record<string, JsonValue | undefined>>)) {
    if (member === undefined) continue;
    const converted = convert(member, depth + 1);
    const folded = foldContextKey(key);
    const existing = index.get(folded);
    if (existing === undefined) {
      index.set(folded, entries.length);
      entries.push({ key, value: converted });
    } else {
      entries[existing] = { key: entries[existing]?.key ?? key, value: converted };
    }
  }
  const dict: DictionaryContextData = { type: ContextDataType.Dictionary, entries };
  return dict;
}

// Newtonsoft's JToken.ToString(): scalars as .NET prints them, containers as indented JSON.
function textOf(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    // A JSON integer is an Int64 in Newtonsoft and prints in full; anything else is a double.
    return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? BigInt(value).toString() : formatShortestNumber(value);
  }
  return JSON.stringify(value, null, 2);
}

/**
 * Context data to plain JSON-like data, as the runner's `ToJToken()` does it (used for
 * `toJSON()`, the event file, composite action inputs): dictionaries of either kind become
 * objects, numbers stay numbers (JSON.stringify writes integral ones without a decimal point, as
 * the runner does). A dictionary holding one key twice cannot become an object: the runner
 * fails there too, and so does this (WireFormatError `duplicate_key`).
 */
export function fromContextData(data: PipelineContextData | null): JsonValue {
  return toPlain(data, '$');
}

function toPlain(data: PipelineContextData | null, path: string): JsonValue {
  if (data === null) return null;
  switch (data.type) {
    case ContextDataType.String:
    case ContextDataType.Boolean:
    case ContextDataType.Number:
      return data.value;
    case ContextDataType.Array:
      return data.items.map((item, i) => toPlain(item, `${path}[${i}]`));
    case ContextDataType.Dictionary:
    case ContextDataType.CaseSensitiveDictionary: {
      const seen = new Set<string>();
      const members = data.entries.map(({ key, value }): readonly [string, JsonValue] => {
        if (seen.has(key)) {
          throw new WireFormatError('duplicate_key', `${path}[${JSON.stringify(key)}]`, 'the key occurs twice');
        }
        seen.add(key);
        return [key, toPlain(value, `${path}[${JSON.stringify(key)}]`)];
      });
      return jsonObjectFromEntries(members);
    }
  }
}
