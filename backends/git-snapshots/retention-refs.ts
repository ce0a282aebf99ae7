import { gitText, runGit, type Git } from './git-process.js';

/**
 * Retention lives in ref names only: `refs/svc/snapshots/<sha>/<expiresAt ms>` points at the
 * commit, so the ref that keeps it reachable and the date it may go are one record that git
 * updates atomically (no side file to fall out of step after a crash). `refs/svc/imports/<id>`
 * is where a running fast-import writes; such a ref lives only while its import does. A
 * commit's tags are refs too (tag-sets.ts): `refs/svc/tagged/<sha>/<set>` and
 * `refs/svc/tagsets/<set>/<name>`, dropped by prune with the commit's last retention ref.
 */
export const SNAPSHOT_REFS = 'refs/svc/snapshots/';
export const IMPORT_REFS = 'refs/svc/imports/';
export const TAGGED_REFS = 'refs/svc/tagged/';
export const TAG_SET_REFS = 'refs/svc/tagsets/';

export interface RetentionRef {
  readonly ref: string;
  readonly sha: string;
  readonly expiresAt: number;
}

/** A commit's tag-set record (`refs/svc/tagged/<sha>/<set>`) or one tag of a set (`refs/svc/tagsets/<set>/<name>`). */
export interface TagSetRef {
  readonly ref: string;
  /** The commit (tagged refs) or undefined (tag-set refs). */
  readonly sha?: string;
  readonly set: string;
}

export interface SvcRefs {
  readonly retention: readonly RetentionRef[];
  readonly imports: readonly string[];
  readonly tagged: readonly TagSetRef[];
  readonly tagSets: readonly TagSetRef[];
}

/** The store's refs (all of them, or one commit's retention refs). */
export async function listSvcRefs(git: Git, gitDir: string, sha?: string): Promise<SvcRefs> {
  const patterns = sha === undefined ? [SNAPSHOT_REFS, IMPORT_REFS, TAGGED_REFS, TAG_SET_REFS] : [`${SNAPSHOT_REFS}${sha}/`];
  const text = await gitText(git, ['for-each-ref', '--format=%(refname)', ...patterns], { gitDir });
  const retention: RetentionRef[] = [];
  const imports: string[] = [];
  const tagged: TagSetRef[] = [];
  const tagSets: TagSetRef[] = [];
  for (const ref of text === '' ? [] : text.split('\n')) {
    if (ref.startsWith(IMPORT_REFS)) {
      imports.push(ref);
      continue;
    }
    const kept = /^refs\/svc\/snapshots\/([0-9a-f]+)\/(\d+)$/.exec(ref);
    if (kept?.[1] !== undefined && kept[2] !== undefined) retention.push({ ref, sha: kept[1], expiresAt: Number(kept[2]) });
    const mark = /^refs\/svc\/tagged\/([0-9a-f]+)\/([0-9a-f]+)$/.exec(ref);
    if (mark?.[1] !== undefined && mark[2] !== undefined) tagged.push({ ref, sha: mark[1], set: mark[2] });
    const member = /^refs\/svc\/tagsets\/([0-9a-f]+)\//.exec(ref);
    if (member?.[1] !== undefined) tagSets.push({ ref, set: member[1] });
  }
  return { retention, imports, tagged, tagSets };
}

/**
 * Keeps `sha` until at least `expiresAt` (never shortens a later date another caller asked
 * for), dropping the commit's older retention refs, with `also` (more `update-ref --stdin`
 * commands: an import ref's delete, a commit's tags) in the same transaction.
 * `known` spares listing the refs when the caller knows them (retention-hints.ts): the expiry of
 * the commit's retention ref, or null for none. Answers the expiry the commit is now kept until.
 */
export async function retainCommit(
  git: Git,
  gitDir: string,
  sha: string,
  expiresAt: number,
  also: readonly string[] = [],
  known?: number | null,
): Promise<number> {
  const retention: readonly RetentionRef[] =
    known === undefined
      ? (await listSvcRefs(git, gitDir, sha)).retention
      : known === null
        ? []
        : [{ ref: `${SNAPSHOT_REFS}${sha}/${known}`, sha, expiresAt: known }];
  const latest = Math.max(-1, ...retention.map((r) => r.expiresAt));
  const commands: string[] = [];
  if (latest < expiresAt) {
    // `update` with no old value: the same ref made meanwhile by another writer is no failure.
    commands.push(`update ${SNAPSHOT_REFS}${sha}/${expiresAt} ${sha}`);
    for (const older of retention) commands.push(`delete ${older.ref}`);
  }
  commands.push(...also);
  await updateRefs(git, gitDir, commands);
  return Math.max(latest, expiresAt);
}

export async function deleteRefs(git: Git, gitDir: string, refs: readonly string[]): Promise<void> {
  await updateRefs(git, gitDir, refs.map((ref) => `delete ${ref}`));
}

/** One `update-ref --stdin` transaction: all commands apply or none. */
export async function updateRefs(git: Git, gitDir: string, commands: readonly string[]): Promise<void> {
  if (commands.length === 0) return;
  await runGit(git, ['update-ref', '--stdin'], { gitDir, input: `${commands.join('\n')}\n` });
}
