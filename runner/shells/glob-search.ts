/**
 * The file walk of `@actions/glob` 0.7 with hashFiles' options (implicit descendants, directories
 * matched, broken links omitted), done synchronously: each pattern's search path is visited in
 * pattern order, depth first, each directory's entries in `readdir` order (libuv sorts them by
 * name bytes on Linux and macOS). Results come in exactly the order hashFiles hashes them.
 */
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { IS_WINDOWS, dirname } from './glob-path.js';
import { GlobPattern, MatchKind, type MatchKindValue, type PatternContext } from './glob-pattern.js';

export interface GlobOptions {
  readonly followSymbolicLinks: boolean;
}

export class GlobSearchError extends Error {
  override readonly name = 'GlobSearchError';
}

/** Patterns from hashFiles' newline-joined text: lines trimmed; empty lines and `#` comments skipped. */
export function parsePatterns(text: string, context: PatternContext): GlobPattern[] {
  const normalized = IS_WINDOWS ? text.replace(/\r\n/g, '\n').replace(/\r/g, '\n') : text;
  return normalized
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => new GlobPattern(line, context));
}

function searchPaths(patterns: readonly GlobPattern[]): string[] {
  const included = patterns.filter((p) => !p.negate);
  const key = (p: string): string => (IS_WINDOWS ? p.toUpperCase() : p);
  const state = new Map<string, 'candidate' | 'included'>();
  for (const pattern of included) state.set(key(pattern.searchPath), 'candidate');
  const result: string[] = [];
  for (const pattern of included) {
    const k = key(pattern.searchPath);
    if (state.get(k) === 'included') continue;
    let ancestor = false;
    let current = k;
    let parent = dirname(current);
    while (parent !== current) {
      if (state.has(parent)) {
        ancestor = true;
        break;
      }
      current = parent;
      parent = dirname(current);
    }
    if (!ancestor) {
      result.push(pattern.searchPath);
      state.set(k, 'included');
    }
  }
  return result;
}

function matchAll(patterns: readonly GlobPattern[], itemPath: string): MatchKindValue {
  let result: MatchKindValue = MatchKind.None;
  for (const pattern of patterns) {
    if (pattern.negate) result &= ~pattern.match(itemPath);
    else result |= pattern.match(itemPath);
  }
  return result;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

interface Item {
  readonly path: string;
  readonly level: number;
}

/** Files and directories the patterns match, in @actions/glob's order. */
export function* globSync(userPatterns: readonly GlobPattern[], context: PatternContext, options: GlobOptions): Generator<string> {
  const patterns: GlobPattern[] = [];
  for (const pattern of userPatterns) {
    patterns.push(pattern);
    if (pattern.trailingSeparator || pattern.segments[pattern.segments.length - 1] !== '**') {
      patterns.push(pattern.withDescendants(context));
    }
  }
  const stack: Item[] = [];
  for (const path of searchPaths(patterns)) {
    try {
      lstatSync(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw error;
    }
    stack.unshift({ path, level: 1 });
  }
  const chain: string[] = [];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const match = matchAll(patterns, item.path);
    const partial = match !== MatchKind.None || patterns.some((p) => !p.negate && p.partialMatch(item.path));
    if (match === MatchKind.None && !partial) continue;
    const stats = statItem(item, options, chain);
    if (!stats) continue;
    if (stats.isDirectory()) {
      if (match & MatchKind.Directory) yield item.path;
      else if (!partial) continue;
      const children = readdirSync(item.path).map((name) => ({ path: join(item.path, name), level: item.level + 1 }));
      stack.push(...children.reverse());
    } else if (match & MatchKind.File) {
      yield item.path;
    }
  }
}

function statItem(item: Item, options: GlobOptions, chain: string[]): Stats | undefined {
  let stats: Stats;
  if (options.followSymbolicLinks) {
    try {
      stats = statSync(item.path);
    } catch (error) {
      // Broken links are omitted (omitBrokenSymbolicLinks), like paths that vanished.
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  } else {
    stats = lstatSync(item.path);
  }
  if (stats.isDirectory() && options.followSymbolicLinks) {
    const real = realpathSync.native(item.path);
    while (chain.length >= item.level) chain.pop();
    if (chain.includes(real)) return undefined;
    chain.push(real);
  }
  return stats;
}
