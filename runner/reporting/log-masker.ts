/**
 * The masker every line, record name, issue and summary goes through before it is queued for
 * the server: the secret values (secret variables, endpoint tokens, `::add-mask::`) through the
 * commands' SecretMasker, plus the job message's regex mask hints (`mask[]` with type `regex`,
 * §3.1), which the runner adds both as a regex and as a literal.
 */
import { mergeRanges, replaceRanges, SecretMasker } from '../commands/index.js';

export class LogMasker {
  readonly #secrets = new SecretMasker();
  readonly #patterns: RegExp[] = [];
  readonly #values = new Set<string>();

  /** The value masker (the command interpreter registers `::add-mask::` values in it). */
  get secrets(): SecretMasker {
    return this.#secrets;
  }

  /** Registers a secret value (its lines too, as the SecretMasker does). Blank values are ignored. */
  add(value: string): void {
    if (value.trim() === '' || this.#values.has(value)) return;
    this.#values.add(value);
    this.#secrets.add(value);
  }

  /** A secret variable or endpoint token, trimmed first as the worker does at job start. */
  addSecret(value: string): void {
    this.add(value.trim());
  }

  /**
   * A mask hint of type `regex`: the value is a .NET pattern (the server escapes literal secrets
   * with `Regex.Escape`, which JavaScript reads the same). A pattern JavaScript cannot compile
   * is still masked as a literal.
   */
  addRegex(pattern: string): void {
    this.add(pattern);
    if (pattern === '') return;
    try {
      const regex = new RegExp(pattern, 'g');
      if (!regex.test('')) this.#patterns.push(regex);
    } catch {
      // Kept as a literal only.
    }
  }

  /** Whether a value holds a registered secret (job outputs and environment URLs holding one are dropped). */
  containsSecret(text: string): boolean {
    return this.mask(text) !== text;
  }

  /**
   * Values and patterns are searched for in the same text and their ranges merged before any is
   * replaced, as the runner does: replacing values first would leave the rest of a pattern's
   * match (or of a value overlapping it) in clear.
   */
  mask(text: string): string {
    if (text === '') return text;
    const ranges: Array<[number, number]> = this.#secrets.ranges(text);
    for (const pattern of this.#patterns) {
      pattern.lastIndex = 0;
      for (const match of text.matchAll(pattern)) if (match[0] !== '') ranges.push([match.index, match.index + match[0].length]);
    }
    return replaceRanges(text, this.#patterns.length === 0 ? ranges : mergeRanges(ranges));
  }
}
