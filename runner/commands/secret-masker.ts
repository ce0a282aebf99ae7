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
    if (text === '' || this.values.size === 0) return text;
    let ranges: Array<[number, number]>;
    if (this.values.size <= DIRECT_SEARCH_LIMIT) {
      ranges = searchRanges(text, this.values);
    } else {
      this.matcher ??= new MultiStringMatcher(this.values);
      ranges = this.matcher.ranges(text);
    }
    if (ranges.length === 0) return text;
    let out = '';
    let from = 0;
    for (const [start, end] of ranges) {
      out += text.slice(from, start) + MASK;
      from = end;
    }
    return out + text.slice(from);
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
