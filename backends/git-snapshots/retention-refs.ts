import { gitText, runGit, type Git } from './git-process.js';

/**
 * Retention lives in ref names only: `refs/svc/snapshots/<sha>/<expiresAt ms>` points at the
 * commit, so the ref that keeps it reachable and the date it may go are one record that git
 * updates atomically (no side file to fall out of step after a crash). `refs/svc/imports/<id>`
 * is where a running fast-import writes; such a ref lives only while its import does.
 */
export const SNAPSHOT_REFS = 'refs/svc/snapshots/';
export const IMPORT_REFS = 'refs/svc/imports/';

export interface RetentionRef {
  readonly ref: string;
  readonly sha: string;
  readonly expiresAt: number;
}

export interface SvcRefs {
  readonly retention: readonly RetentionRef[];
  readonly imports: readonly string[];
}

/** The store's refs (all of them, or one commit's retention refs). */
export async function listSvcRefs(git: Git, gitDir: string, sha?: string): Promise<SvcRefs> {
  const patterns = sha === undefined ? [SNAPSHOT_REFS, IMPORT_REFS] : [`${SNAPSHOT_REFS}${sha}/`];
  const text = await gitText(git, ['for-each-ref', '--format=%(refname)', ...patterns], { gitDir });
  const retention: RetentionRef[] = [];
  const imports: string[] = [];
  for (const ref of text === '' ? [] : text.split('\n')) {
    if (ref.startsWith(IMPORT_REFS)) {
      imports.push(ref);
      continue;
    }
    const match = /^refs\/svc\/snapshots\/([0-9a-f]+)\/(\d+)$/.exec(ref);
    if (match?.[1] !== undefined && match[2] !== undefined) retention.push({ ref, sha: match[1], expiresAt: Number(match[2]) });
  }
  return { retention, imports };
}

/**
 * Keeps `sha` until at least `expiresAt` (never shortens a later date another caller asked
 * for), dropping the commit's older retention refs and `alsoDelete` in the same transaction.
 * `known` spares listing the refs when the caller knows them (retention-hints.ts): the expiry of
 * the commit's retention ref, or null for none. Answers the expiry the commit is now kept until.
 */
export async function retainCommit(
  git: Git,
  gitDir: string,
  sha: string,
  expiresAt: number,
  alsoDelete: readonly string[] = [],
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
  for (const ref of alsoDelete) commands.push(`delete ${ref}`);
  await updateRefs(git, gitDir, commands);
  return Math.max(latest, expiresAt);
}

export async function deleteRefs(git: Git, gitDir: string, refs: readonly string[]): Promise<void> {
  await updateRefs(git, gitDir, refs.map((ref) => `delete ${ref}`));
}

/** One `update-ref --stdin` transaction: all commands apply or none. */
async function updateRefs(git: Git, gitDir: string, commands: readonly string[]): Promise<void> {
  if (commands.length === 0) return;
  await runGit(git, ['update-ref', '--stdin'], { gitDir, input: `${commands.join('\n')}\n` });
}
