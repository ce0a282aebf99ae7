/**
 * The masker every line, record name, issue and summary goes through before it is queued for
 * the server: the secret values (secret variables, endpoint tokens, `::add-mask::`) through the
 * commands' SecretMasker, plus the job message's regex mask hints (`mask[]` with type `regex`,
 * §3.1), which the runner adds both as a regex and as a literal.
 */
import { SecretMasker } from '../commands/index.js';

const MASK = '***';

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

  mask(text: string): string {
    let masked = this.#secrets.mask(text);
    for (const pattern of this.#patterns) {
      pattern.lastIndex = 0;
      masked = masked.replace(pattern, MASK);
    }
    return masked;
  }
}
