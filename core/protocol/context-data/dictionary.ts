import { WireFormatError } from '../wire/index.js';
import type {
  AnyDictionaryContextData,
  CaseSensitiveDictionaryContextData,
  ContextDataEntry,
  DictionaryContextData,
  PipelineContextData,
} from './context-data.js';
import { ContextDataType } from './context-data.js';

/**
 * A key as the runner's ordinal-ignore-case comparer sees it: each code point upper-cased on its
 * own (a mapping that would change the length, such as ß → SS, is not applied).
 */
export function foldContextKey(key: string): string {
  let folded = '';
  for (const ch of key) {
    const upper = ch.toUpperCase();
    folded += upper.length === ch.length ? upper : ch;
  }
  return folded;
}

function comparable(dict: AnyDictionaryContextData, key: string): string {
  return dict.type === ContextDataType.Dictionary ? foldContextKey(key) : key;
}

// Dictionaries are immutable values, so the key index the runner builds lazily can be cached per
// entries array. The runner fails every keyed lookup on a dictionary holding two keys its
// comparer considers equal (a wire dictionary can carry them); the cached failure mirrors that.
const indexes = new WeakMap<readonly ContextDataEntry[], ReadonlyMap<string, number> | WireFormatError>();

function indexOf(dict: AnyDictionaryContextData): ReadonlyMap<string, number> {
  let index = indexes.get(dict.entries);
  if (index === undefined) {
    index = buildIndex(dict);
    indexes.set(dict.entries, index);
  }
  if (index instanceof WireFormatError) throw index;
  return index;
}

function buildIndex(dict: AnyDictionaryContextData): ReadonlyMap<string, number> | WireFormatError {
  const index = new Map<string, number>();
  for (const [i, entry] of dict.entries.entries()) {
    const k = comparable(dict, entry.key);
    if (index.has(k)) {
      return new WireFormatError(
        'duplicate_key',
        `$[${JSON.stringify(entry.key)}]`,
        dict.type === ContextDataType.Dictionary
          ? 'the dictionary holds keys that differ only in case; the runner cannot look keys up in it'
          : 'the dictionary holds the same key twice; the runner cannot look keys up in it',
      );
    }
    index.set(k, i);
  }
  return index;
}

/**
 * The value under `key` (ignoring case for a dictionary, exactly for a case-sensitive one);
 * `undefined` when absent, `null` when present with a null value.
 */
export function getContextValue(dict: AnyDictionaryContextData, key: string): PipelineContextData | null | undefined {
  const i = indexOf(dict).get(comparable(dict, key));
  return i === undefined ? undefined : dict.entries[i]?.value;
}

export function hasContextKey(dict: AnyDictionaryContextData, key: string): boolean {
  return indexOf(dict).has(comparable(dict, key));
}

/**
 * A copy with `key` set, as the runner's indexer does: an existing key keeps its position and
 * its original spelling and gets the new value; a new key is appended.
 */
export function setContextValue<D extends AnyDictionaryContextData>(dict: D, key: string, value: PipelineContextData | null): D {
  const i = indexOf(dict).get(comparable(dict, key));
  const entries =
    i === undefined
      ? [...dict.entries, { key, value }]
      : dict.entries.map((entry, j) => (j === i ? { key: entry.key, value } : entry));
  return { ...dict, entries };
}

/** A dictionary (keys compare ignoring case). Two keys equal but for case are refused. */
export function contextDictionary(
  pairs: Iterable<readonly [string, PipelineContextData | null]> = [],
): DictionaryContextData {
  return checked({ type: ContextDataType.Dictionary, entries: toEntries(pairs) });
}

/** A case-sensitive dictionary. A repeated key is refused. */
export function contextCaseSensitiveDictionary(
  pairs: Iterable<readonly [string, PipelineContextData | null]> = [],
): CaseSensitiveDictionaryContextData {
  return checked({ type: ContextDataType.CaseSensitiveDictionary, entries: toEntries(pairs) });
}

function toEntries(pairs: Iterable<readonly [string, PipelineContextData | null]>): ContextDataEntry[] {
  return Array.from(pairs, ([key, value]) => ({ key, value }));
}

function checked<D extends AnyDictionaryContextData>(dict: D): D {
  indexOf(dict);
  return dict;
}
