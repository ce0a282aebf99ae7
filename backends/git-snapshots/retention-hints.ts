import type { RetentionRef } from './retention-refs.js';

/**
 * What this process knows about retention without asking git. For a commit whose retention ref
 * it wrote or listed: the expiry of that ref. A retain that asks for no later date then needs no
 * git at all, and one that does needs no ref listing. For a repository whose refs it listed
 * whole (prune does, under its exclusive lock) it also knows that a commit absent from the
 * listing has no retention ref, so a fresh import needs no listing either.
 *
 * Why a hint stays true: every retention write (retention-refs.ts `retainCommit`) adds a ref no
 * earlier than the commit's latest, then drops the older ones; refs are removed only by prune,
 * which forgets the repository's hints under its exclusive lock before it deletes any, and only
 * refs already expired. So while a hint is held, a ref at least that late exists and keeps the
 * commit reachable. Another process writing the same snapshot root (unsupported, see
 * git-snapshot-store.ts) could only make this process add a ref that was not needed or leave an
 * older one behind: a commit kept longer, never one lost early.
 */
export class RetentionHints {
  readonly #until = new Map<string, Map<string, number>>();
  readonly #complete = new Set<string>();

  /** The expiry of the commit's latest retention ref; null when it surely has none; undefined when unknown. */
  get(gitDir: string, sha: string): number | null | undefined {
    const known = this.#until.get(gitDir)?.get(sha);
    if (known !== undefined) return known;
    return this.#complete.has(gitDir) ? null : undefined;
  }

  /** Records the expiry `retainCommit` answered after its transaction succeeded. */
  set(gitDir: string, sha: string, until: number): void {
    let commits = this.#until.get(gitDir);
    if (commits === undefined) {
      commits = new Map();
      this.#until.set(gitDir, commits);
    }
    commits.set(sha, Math.max(until, commits.get(sha) ?? -1));
  }

  /** Takes a whole listing of the repository's retention refs (prune's, under its exclusive lock). */
  load(gitDir: string, refs: readonly RetentionRef[]): void {
    this.forget(gitDir);
    for (const ref of refs) this.set(gitDir, ref.sha, ref.expiresAt);
    this.#complete.add(gitDir);
  }

  /** Drops a repository's hints; prune calls this before it deletes refs. */
  forget(gitDir: string): void {
    this.#until.delete(gitDir);
    this.#complete.delete(gitDir);
  }
}
