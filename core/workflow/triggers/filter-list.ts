/**
 * A list of filter patterns as a workflow writes it (`branches`, `tags`, `paths`, their
 * `-ignore` twins, `workflows`, ...), evaluated the way GitHub documents:
 *
 * - Patterns are checked in order and the last one that matches decides: a matching `!pattern`
 *   excludes what an earlier pattern included, a later positive pattern includes it again. A
 *   name no pattern matches is not included, so a list of only `!` patterns includes nothing.
 * - An inclusion list (`branches`, `paths`, ...) selects the names it includes.
 * - An ignore list (`branches-ignore`, `paths-ignore`) ignores the names it includes; GitHub
 *   does not document `!` there, we apply the same ordered rule.
 * - An empty list restricts nothing (as act and runner.server treat it; GitHub does not say).
 */
import { compileFilterPattern, type FilterPattern } from './glob.js';

export interface FilterList {
  readonly patterns: readonly FilterPattern[];
}

export type FilterListCompilation =
  | { readonly ok: true; readonly list: FilterList }
  | { readonly ok: false; readonly errors: readonly string[] };

export function compileFilterList(sources: readonly string[]): FilterListCompilation {
  const patterns: FilterPattern[] = [];
  const errors: string[] = [];
  for (const source of sources) {
    const compiled = compileFilterPattern(source);
    if (compiled.ok) patterns.push(compiled.pattern);
    else errors.push(compiled.error);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, list: { patterns } };
}

/** True when the ordered patterns leave `value` included (see the module comment). */
export function isIncluded(list: FilterList, value: string): boolean {
  if (list.patterns.length === 0) return true;
  let included = false;
  for (const pattern of list.patterns) {
    if (pattern.regex.test(value)) included = !pattern.negated;
  }
  return included;
}

/** True when an ignore list ignores `value`. An empty ignore list ignores nothing. */
export function isIgnored(list: FilterList, value: string): boolean {
  return list.patterns.length > 0 && isIncluded(list, value);
}

/**
 * Tests one name against a pattern list in one call, for callers that hold plain strings (the
 * conformance suite, tooling). Throws nothing: invalid patterns come back as errors.
 */
export function matchFilterPatterns(
  sources: readonly string[],
  value: string,
): { readonly ok: true; readonly included: boolean } | { readonly ok: false; readonly errors: readonly string[] } {
  const compiled = compileFilterList(sources);
  if (!compiled.ok) return compiled;
  return { ok: true, included: isIncluded(compiled.list, value) };
}
