/**
 * One hashFiles pattern, with the rules of `@actions/glob` 0.7 (what the runner's hashFiles runs):
 * leading `!` negates (repeatable), the pattern is rooted at the workspace (`~` at home), `.` is
 * allowed only as the first segment and `..` never, a trailing separator matches directories
 * only, and matching is minimatch 10.2.5 with dot files included and no braces, extglobs,
 * comments or negation (case-insensitive on Windows).
 */
import { Minimatch, type MinimatchOptions } from 'minimatch';
import { sep } from 'node:path';
import { IS_WINDOWS, dirname, ensureAbsoluteRoot, hasAbsoluteRoot, hasRoot, joinSegments, normalizeSeparators, pathSegments, safeTrimTrailingSeparator } from './glob-path.js';

export const MatchKind = { None: 0, Directory: 1, File: 2, All: 3 } as const;
export type MatchKindValue = number;

export class GlobPatternError extends Error {
  override readonly name = 'GlobPatternError';
}

const MINIMATCH_OPTIONS: MinimatchOptions = { dot: true, nobrace: true, nocase: IS_WINDOWS, nocomment: true, noext: true, nonegate: true };

/** A segment without glob characters as the literal name it stands for; '' when it globs. */
export function literalOf(segment: string): string {
  let literal = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && !IS_WINDOWS && i + 1 < segment.length) {
      literal += segment[++i];
      continue;
    }
    if (c === '*' || c === '?') return '';
    if (c === '[' && i + 1 < segment.length) {
      let set = '';
      let closed = -1;
      for (let j = i + 1; j < segment.length; j++) {
        const d = segment[j]!;
        if (d === '\\' && !IS_WINDOWS && j + 1 < segment.length) {
          set += segment[++j];
          continue;
        }
        if (d === ']') {
          closed = j;
          break;
        }
        set += d;
      }
      if (closed >= 0) {
        if (set.length > 1) return '';
        if (set) {
          literal += set;
          i = closed;
          continue;
        }
      }
    }
    literal += c;
  }
  return literal;
}

/** Escapes a literal path so that it matches only itself. */
export function globEscape(s: string): string {
  return (IS_WINDOWS ? s : s.replace(/\\/g, '\\\\'))
    .replace(/(\[)(?=[^/]+\])/g, '[[]')
    .replace(/\?/g, '[?]')
    .replace(/\*/g, '[*]');
}

function regExpEscape(s: string): string {
  return s.replace(/[[\\^$.|?*+()]/g, '\\$&');
}

export interface PatternContext {
  /** The directory relative patterns are rooted at (hashFiles: the workspace, as its cwd). */
  readonly cwd: string;
  readonly homedir: string;
}

function fixupPattern(pattern: string, context: PatternContext): string {
  if (!pattern) throw new GlobPatternError('pattern cannot be empty');
  const literals = pathSegments(pattern).map(literalOf);
  if (!literals.every((x, i) => (x !== '.' || i === 0) && x !== '..')) {
    throw new GlobPatternError(`Invalid pattern '${pattern}'. Relative pathing '.' and '..' is not allowed.`);
  }
  if (hasRoot(pattern) && !literals[0]) throw new GlobPatternError(`Invalid pattern '${pattern}'. Root segment must not contain globs.`);
  let result = normalizeSeparators(pattern);
  if (result === '.' || result.startsWith(`.${sep}`)) {
    result = globEscape(context.cwd) + result.slice(1);
  } else if (result === '~' || result.startsWith(`~${sep}`)) {
    if (!hasAbsoluteRoot(context.homedir)) throw new GlobPatternError(`Expected HOME directory to be a rooted path. Actual '${context.homedir}'`);
    result = globEscape(context.homedir) + result.slice(1);
  } else if (IS_WINDOWS && (/^[A-Z]:$/i.test(result) || /^[A-Z]:[^\\]/i.test(result))) {
    let root = ensureAbsoluteRoot('C:\\dummy-root', result.slice(0, 2), context.cwd);
    if (result.length > 2 && !root.endsWith('\\')) root += '\\';
    result = globEscape(root) + result.slice(2);
  } else if (IS_WINDOWS && (result === '\\' || /^\\[^\\]/.test(result))) {
    let root = ensureAbsoluteRoot('C:\\dummy-root', '\\', context.cwd);
    if (!root.endsWith('\\')) root += '\\';
    result = globEscape(root) + result.slice(1);
  } else {
    result = ensureAbsoluteRoot(globEscape(context.cwd), result, context.cwd);
  }
  return normalizeSeparators(result);
}

export class GlobPattern {
  readonly negate: boolean;
  readonly segments: string[];
  readonly trailingSeparator: boolean;
  /** The literal directory before the first glob segment: where the search starts. */
  readonly searchPath: string;
  private readonly minimatch: Minimatch;
  private readonly rootRegExp: RegExp;

  constructor(
    text: string,
    context: PatternContext,
    private readonly implicit = false,
  ) {
    let pattern = text.trim();
    let negate = false;
    while (pattern.startsWith('!')) {
      negate = !negate;
      pattern = pattern.slice(1).trim();
    }
    this.negate = negate;
    pattern = fixupPattern(pattern, context);
    this.segments = pathSegments(pattern);
    this.trailingSeparator = normalizeSeparators(pattern).endsWith(sep);
    pattern = safeTrimTrailingSeparator(pattern);
    let foundGlob = false;
    const searchSegments = this.segments.map(literalOf).filter((x) => !foundGlob && !(foundGlob = x === ''));
    this.searchPath = joinSegments(searchSegments);
    this.rootRegExp = new RegExp(regExpEscape(searchSegments[0] ?? ''), IS_WINDOWS ? 'i' : '');
    this.minimatch = new Minimatch(IS_WINDOWS ? pattern.replace(/\\/g, '/') : pattern, MINIMATCH_OPTIONS);
  }

  /** The pattern `@actions/glob` adds so a match also covers everything below it. */
  withDescendants(context: PatternContext): GlobPattern {
    const text = joinSegments([...this.segments, '**']);
    return new GlobPattern(this.negate ? `!${text}` : text, context, true);
  }

  match(itemPath: string): MatchKindValue {
    let path: string;
    if (this.segments[this.segments.length - 1] === '**') {
      path = normalizeSeparators(itemPath);
      // minimatch matches `/a/**` against `/a/` but not `/a`.
      if (!path.endsWith(sep) && !this.implicit) path += sep;
    } else {
      path = safeTrimTrailingSeparator(itemPath);
    }
    if (!this.minimatch.match(path)) return MatchKind.None;
    return this.trailingSeparator ? MatchKind.Directory : MatchKind.All;
  }

  /** Whether something below this path may match. */
  partialMatch(itemPath: string): boolean {
    const path = safeTrimTrailingSeparator(itemPath);
    if (dirname(path) === path) return this.rootRegExp.test(path);
    const first = this.minimatch.set[0];
    if (!first) return false;
    return this.minimatch.matchOne(path.split(IS_WINDOWS ? /\\+/ : /\/+/), first, true);
  }
}
