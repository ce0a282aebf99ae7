/**
 * The message's `mask`: `{type: regex, value}` hints the runner adds to its log masker (as a
 * regex and as a literal). Secret variables and the endpoint token are masked by the runner
 * anyway; the hints repeat every secret value the message carries, escaped so that each matches
 * only itself, so a value reaches the masker even if a variable is renamed or dropped on the way.
 */
import type { JsonObject } from '../../../core/protocol/index.js';

/** .NET `Regex.Escape`: metacharacters and white space escaped. */
export function escapeRegex(value: string): string {
  return value.replace(/[\\*+?|{[()^$.#\s]/g, (c) => {
    switch (c) {
      case '\t':
        return '\\t';
      case '\n':
        return '\\n';
      case '\f':
        return '\\f';
      case '\r':
        return '\\r';
      case ' ':
        return '\\ ';
      default:
        return `\\${c}`;
    }
  });
}

export function maskHints(values: Iterable<string>): JsonObject[] {
  const seen = new Set<string>();
  const hints: JsonObject[] = [];
  for (const value of values) {
    if (value === '' || seen.has(value)) continue;
    seen.add(value);
    hints.push({ type: 'regex', value: escapeRegex(value) });
  }
  return hints;
}
