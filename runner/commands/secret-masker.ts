/**
 * The job's secret masker. Every registered value and its encoded forms (value-encoders.ts) are
 * searched for in each text; each maximal run of overlapping or touching occurrences becomes one
 * `***`, so overlapping secrets never leave fragments behind (the runner merges ranges the same
 * way). Values are matched case-sensitively, as the runner does.
 */
import { MultiStringMatcher, searchRanges } from './string-matcher.js';
import { RUNNER_VALUE_ENCODERS } from './value-encoders.js';

export const MASK = '***';

/** Up to this many strings, each is searched for natively; beyond, one automaton finds them all in one pass. */
export const DIRECT_SEARCH_LIMIT = 32;

export class SecretMasker {
  private readonly originals = new Set<string>();
  private readonly values = new Set<string>();
  private matcher: MultiStringMatcher | undefined;

  /**
   * Registers a value as `::add-mask::` does: the value as given, and each of its lines trimmed
   * (the runner splits on CR and LF, trims, and drops empty lines), each with its encodings.
   * Empty and white-space-only values are ignored.
   */
  add(value: string): void {
    if (value.trim() === '') return;
    this.addOne(value);
    for (const line of value.split(/[\r\n]/)) {
      const trimmed = line.trim();
      if (trimmed !== '') this.addOne(trimmed);
    }
  }

  /** Registers a secret variable as the worker does at job start: the value trimmed first. */
  addSecret(value: string): void {
    this.add(value.trim());
  }

  /** How many distinct strings (values and encodings) are searched for. */
  get size(): number {
    return this.values.size;
  }

  mask(text: string): string {
    return replaceRanges(text, this.ranges(text));
  }

  /** The ranges `mask` replaces: sorted, each maximal run of overlapping or touching occurrences merged. */
  ranges(text: string): Array<[number, number]> {
    if (text === '' || this.values.size === 0) return [];
    if (this.values.size <= DIRECT_SEARCH_LIMIT) return searchRanges(text, this.values);
    this.matcher ??= new MultiStringMatcher(this.values);
    return this.matcher.ranges(text);
  }

  private addOne(value: string): void {
    if (this.originals.has(value)) return;
    this.originals.add(value);
    const before = this.values.size;
    this.values.add(value);
    for (const encode of RUNNER_VALUE_ENCODERS) {
      const encoded = encode(value);
      if (encoded !== '') this.values.add(encoded);
    }
    if (this.values.size !== before) this.matcher = undefined;
  }
}

/**
 * Ranges from several searches merged (sorted by start; overlapping or touching ones become one)
 * so that each run is one `***` and no fragment of either secret is left between them.
 */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** `text` with each (sorted, disjoint) range replaced by `***`. */
export function replaceRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + MASK;
    from = end;
  }
  return out + text.slice(from);
}
