import { createHash } from 'node:crypto';
import type { SnapshotTag } from '../../core/ports/index.js';
import { gitText, type Git } from './git-process.js';
import { TAG_SET_REFS, TAGGED_REFS } from './retention-refs.js';

/**
 * The tags recorded with a commit, as refs (so the annotated tag objects stay reachable, and
 * gc keeps them). A set of tags is stored once under its content's hash,
 * `refs/svc/tagsets/<set>/<name>`, and a commit names its set with `refs/svc/tagged/<sha>/<set>`:
 * every run of a repository with a thousand tags makes a new commit, and writing a thousand
 * refs each time would cost seconds and megabytes; with sets, a run whose tags did not change
 * writes one ref. A set never changes (its name is its content), so a reader may cache it.
 */

/** sha1 of the sorted `<object> <name>` lines. */
export function tagSetId(tags: readonly SnapshotTag[]): string {
  const lines = tags.map((tag) => `${tag.object} ${tag.name}\n`).sort();
  return createHash('sha1').update(lines.join('')).digest('hex');
}

/** The set a commit's tags are (null: no tags), as recorded. */
export function tagSetOf(tags: readonly SnapshotTag[]): string | null {
  return tags.length === 0 ? null : tagSetId(tags);
}

/**
 * The `update-ref --stdin` commands that make `tags` the tags recorded with `sha`: the set's refs
 * when the store does not hold that set yet, the commit's record of it, and the removal of its
 * record of another set. Asks git once for what is there, unless `known` (TagSetHints) says the
 * commit records this set already; an empty list when nothing changes.
 */
export async function tagSetCommands(git: Git, gitDir: string, sha: string, tags: readonly SnapshotTag[], known?: string | null): Promise<string[]> {
  const set = tagSetOf(tags) ?? undefined;
  if (known !== undefined && known === (set ?? null)) return [];
  const mine = set === undefined ? undefined : `${TAGGED_REFS}${sha}/${set}`;
  const patterns = [`${TAGGED_REFS}${sha}/`, ...(set === undefined ? [] : [`${TAG_SET_REFS}${set}/`])];
  const text = await gitText(git, ['for-each-ref', '--format=%(refname)', ...patterns], { gitDir });
  const refs = text === '' ? [] : text.split('\n');
  const records = refs.filter((ref) => ref.startsWith(TAGGED_REFS));
  const held = refs.some((ref) => ref.startsWith(TAG_SET_REFS));
  const commands = records.filter((ref) => ref !== mine).map((ref) => `delete ${ref}`);
  if (mine !== undefined && !records.includes(mine)) commands.push(`update ${mine} ${sha}`);
  // `update` without an old value: the same set written meanwhile by another upload is no failure.
  if (set !== undefined && !held) for (const tag of tags) commands.push(`update ${TAG_SET_REFS}${set}/${tag.name} ${tag.object}`);
  return commands;
}

/**
 * The set each commit records, as this process wrote it, so a run whose tags did not change costs
 * no git process. True while held: a commit's record changes only through this process's
 * transactions (which update the hint after they succeed) and prune, which forgets the
 * repository's hints before it deletes any record (the same reasoning as retention-hints.ts).
 */
export class TagSetHints {
  readonly #sets = new Map<string, Map<string, string | null>>();

  get(gitDir: string, sha: string): string | null | undefined {
    return this.#sets.get(gitDir)?.get(sha);
  }

  set(gitDir: string, sha: string, set: string | null): void {
    let commits = this.#sets.get(gitDir);
    if (commits === undefined) {
      commits = new Map();
      this.#sets.set(gitDir, commits);
    }
    commits.set(sha, set);
  }

  forget(gitDir: string): void {
    this.#sets.delete(gitDir);
  }
}

/** Tag sets read, by repository and set: a set is immutable, so this never goes stale. */
export class TagSetCache {
  readonly #sets = new Map<string, readonly SnapshotTag[]>();

  constructor(private readonly limit = 32) {}

  get(gitDir: string, set: string): readonly SnapshotTag[] | undefined {
    return this.#sets.get(`${gitDir}\0${set}`);
  }

  set(gitDir: string, set: string, tags: readonly SnapshotTag[]): void {
    const key = `${gitDir}\0${set}`;
    this.#sets.delete(key);
    this.#sets.set(key, tags);
    for (const oldest of this.#sets.keys()) {
      if (this.#sets.size <= this.limit) break;
      this.#sets.delete(oldest);
    }
  }
}

/** The tags recorded with `sha` (none when it has no record). */
export async function readTagSet(git: Git, gitDir: string, sha: string, cache: TagSetCache): Promise<readonly SnapshotTag[]> {
  const records = await gitText(git, ['for-each-ref', '--format=%(refname)', `${TAGGED_REFS}${sha}/`], { gitDir });
  const set = records === '' ? undefined : records.split('\n')[0]?.slice(`${TAGGED_REFS}${sha}/`.length);
  if (set === undefined) return [];
  const cached = cache.get(gitDir, set);
  if (cached !== undefined) return cached;
  const prefix = `${TAG_SET_REFS}${set}/`;
  const text = await gitText(git, ['for-each-ref', '--format=%(objectname) %(refname)', prefix], { gitDir });
  const tags: SnapshotTag[] = [];
  for (const line of text === '' ? [] : text.split('\n')) {
    const space = line.indexOf(' ');
    tags.push({ object: line.slice(0, space), name: line.slice(space + 1 + prefix.length) });
  }
  cache.set(gitDir, set, tags);
  return tags;
}
