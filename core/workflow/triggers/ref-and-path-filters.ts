/**
 * Branch, tag and path filters ("Workflow syntax: on.push.<branches|tags|branches-ignore|
 * tags-ignore>", "on.<pull_request|pull_request_target>.<branches|branches-ignore>",
 * "on.<push|pull_request|pull_request_target>.<paths|paths-ignore>", "Git diff comparisons").
 * Each check returns a skip reason, or undefined when the filter lets the event through.
 */
import { isIgnored, isIncluded } from './filter-list.js';
import type { PatternFilter } from './on-section.js';

/** GitHub evaluates path filters over at most the first 300 files of the diff. */
export const PATH_FILTER_FILE_LIMIT = 300;

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

export interface PushRefFilters {
  readonly branches: PatternFilter | undefined;
  readonly tags: PatternFilter | undefined;
}

export type RefKind = 'branch' | 'tag' | 'other';

export function refKind(ref: string): { readonly kind: RefKind; readonly name: string } {
  if (ref.startsWith(HEADS)) return { kind: 'branch', name: ref.slice(HEADS.length) };
  if (ref.startsWith(TAGS)) return { kind: 'tag', name: ref.slice(TAGS.length) };
  return { kind: 'other', name: ref };
}

/**
 * A push of a branch is checked against the branch filter, a push of a tag against the tag
 * filter. With filters of one kind only, pushes of the other kind do not run the workflow; with
 * neither, every push does.
 */
export function pushRefMismatch(filters: PushRefFilters, ref: string): string | undefined {
  const { kind, name } = refKind(ref);
  if (kind === 'branch') {
    if (filters.branches) return nameMismatch(filters.branches, name, 'branch');
    if (filters.tags) return `branch push '${name}': only tag filters are defined (${filters.tags.key})`;
    return undefined;
  }
  if (kind === 'tag') {
    if (filters.tags) return nameMismatch(filters.tags, name, 'tag');
    if (filters.branches) return `tag push '${name}': only branch filters are defined (${filters.branches.key})`;
    return undefined;
  }
  if (filters.branches || filters.tags) return `ref '${ref}' is neither a branch nor a tag, and ref filters are defined`;
  return undefined;
}

/** A branch or other name against an inclusion or ignore filter. */
export function nameMismatch(filter: PatternFilter, name: string, what: string): string | undefined {
  if (filter.mode === 'include') {
    return isIncluded(filter.list, name) ? undefined : `${what} '${name}' does not match ${filter.key}`;
  }
  return isIgnored(filter.list, name) ? `${what} '${name}' matches ${filter.key}` : undefined;
}

/**
 * `paths`: runs when at least one changed file is included. `paths-ignore`: runs when at least
 * one changed file is not ignored. No changed files: does not run. Unknown changes (`undefined`):
 * runs, as GitHub does when it cannot compute the diff.
 */
export function pathMismatch(filter: PatternFilter | undefined, changedFiles: readonly string[] | undefined): string | undefined {
  if (!filter || changedFiles === undefined) return undefined;
  const files = changedFiles.slice(0, PATH_FILTER_FILE_LIMIT);
  if (files.length === 0) return `no files changed, and ${filter.key} is defined`;
  if (filter.mode === 'include') {
    return files.some((file) => isIncluded(filter.list, file)) ? undefined : `no changed file matches ${filter.key}`;
  }
  return files.some((file) => !isIgnored(filter.list, file)) ? undefined : `every changed file matches ${filter.key}`;
}
