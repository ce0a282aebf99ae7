/**
 * GitHub's filter patterns (branches, tags, paths, workflow names), compiled to anchored regular
 * expressions. The rules come from "Workflow syntax: Filter pattern cheat sheet":
 *
 * - `*` matches zero or more characters but not `/`; `**` matches zero or more of any character;
 *   `**` followed by `/` matches zero or more whole directories, so the pattern `**` + `/README.md`
 *   matches `README.md` at the root too.
 * - `?` makes the preceding character optional, `+` repeats it one or more times (`*.jsx?`,
 *   `v[12].[0-9]+`). At the very start of a pattern they are plain characters.
 * - `[...]` matches one alphanumeric character listed or inside a range (`a-z`, `A-Z`, `0-9`,
 *   or any sub-range such as `1-2`).
 * - `\` makes the next character literal; `!` negates the pattern, only as its first character.
 * - Matching is case-sensitive and must cover the whole name or path.
 *
 * Malformed patterns (`[]`, an unclosed `[`, a bad range, a trailing `\`) are errors: GitHub
 * rejects the workflow rather than guessing.
 */

export interface FilterPattern {
  /** The pattern as written, including a leading `!`. */
  readonly source: string;
  readonly negated: boolean;
  readonly regex: RegExp;
}

export type PatternCompilation =
  | { readonly ok: true; readonly pattern: FilterPattern }
  | { readonly ok: false; readonly error: string };

/** What the last emitted piece was, to decide what a following `?` or `+` applies to. */
type Last = 'start' | 'atom' | 'wildcard' | 'quantified';

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/;

export function compileFilterPattern(source: string): PatternCompilation {
  const negated = source.startsWith('!');
  const chars = Array.from(negated ? source.slice(1) : source);
  const parts: string[] = [];
  let last: Last = 'start';

  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    switch (ch) {
      case '*': {
        if (chars[i + 1] === '*') {
          if (chars[i + 2] === '/') {
            parts.push('(?:.+/)?');
            i += 2;
          } else {
            parts.push('.*');
            i += 1;
          }
        } else {
          parts.push('[^/]*');
        }
        last = 'wildcard';
        break;
      }
      case '?':
      case '+': {
        if (last === 'start') {
          parts.push(escapeChar(ch));
          last = 'atom';
        } else if (last === 'atom') {
          parts.push(ch);
          last = 'quantified';
        } else if (last === 'quantified' && ch === '+') {
          return invalid(source, `'+' cannot follow another quantifier (position ${i})`);
        }
        // After a wildcard, or `?` after a quantifier, the set of matched names is unchanged.
        break;
      }
      case '[': {
        const parsed = parseBracket(chars, i);
        if (typeof parsed === 'string') return invalid(source, parsed);
        parts.push(parsed.regex);
        i = parsed.end;
        last = 'atom';
        break;
      }
      case '\\': {
        const next = chars[i + 1];
        if (next === undefined) return invalid(source, `missing character after '\\' (position ${i})`);
        parts.push(escapeChar(next));
        i += 1;
        last = 'atom';
        break;
      }
      default:
        parts.push(escapeChar(ch));
        last = 'atom';
    }
  }

  const regex = new RegExp(`^${parts.join('')}$`, 'su');
  return { ok: true, pattern: { source, negated, regex } };
}

/** Reads `[...]` starting at `start`; returns the class and the index of the closing `]`. */
function parseBracket(
  chars: readonly string[],
  start: number,
): { readonly regex: string; readonly end: number } | string {
  let i = start + 1;
  if (chars[i] === ']') return `empty brackets '[]' (position ${start})`;
  let body = '';
  while (i < chars.length && chars[i] !== ']') {
    const ch = chars[i] as string;
    if (!isAlphanumeric(ch)) {
      return `'${ch}' inside brackets; only letters, digits and ranges are allowed (position ${i})`;
    }
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      const end = chars[i + 2] as string;
      if (!isValidRange(ch, end)) {
        return `invalid range '${ch}-${end}'; ranges can only include a-z, A-Z and 0-9 (position ${i})`;
      }
      body += `${ch}-${end}`;
      i += 3;
      continue;
    }
    if (chars[i + 1] === '-') return `invalid range after '${ch}' (position ${i + 1})`;
    body += ch;
    i += 1;
  }
  if (i >= chars.length) return `missing closing ']' for '[' (position ${start})`;
  return { regex: `[${body}]`, end: i };
}

function isAlphanumeric(ch: string): boolean {
  return /^[a-zA-Z0-9]$/.test(ch);
}

function isValidRange(from: string, to: string): boolean {
  if (!isAlphanumeric(to) || from > to) return false;
  const bothDigits = /\d/.test(from) && /\d/.test(to);
  // `A-z` is accepted too (act and runner.server accept it; GitHub's docs do not mention it).
  const bothLetters = /[a-zA-Z]/.test(from) && /[a-zA-Z]/.test(to);
  return bothDigits || bothLetters;
}

function escapeChar(ch: string): string {
  return REGEX_SYNTAX.test(ch) ? `\\${ch}` : ch;
}

function invalid(source: string, detail: string): PatternCompilation {
  return { ok: false, error: `invalid filter pattern '${source}': ${detail}` };
}
