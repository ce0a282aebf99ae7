/**
 * The workflow files kept with a run: the entry file and every workflow it calls, as read when
 * the run was created. Jobs are planned again from them (dispatch, deferred expansion, re-runs),
 * so a re-run runs the same content even after a branch or tag of a called workflow moved.
 *
 * Keys: a file of the run's repository by its path (`.github/workflows/ci.yml`); a file of another
 * repository as it was called, `owner/repo/path@ref` (the `@ref` as written in `uses:`), with the
 * commit it was read at.
 */
import type { LoadedWorkflowFile, WorkflowLoader, WorkflowRef } from '../../workflow/index.js';
import type { EngineExecutor } from '../store/engine-db.js';

/** Where a file of another repository was read: the ref as GitHub names it and the commit. */
export interface WorkflowCommit {
  /** `refs/tags/v1`, `refs/heads/main`, or the commit sha when `uses:` named one. */
  readonly ref: string;
  readonly sha: string;
}

export interface RunFile {
  readonly content: string;
  /** Files of other repositories only. */
  readonly commit?: WorkflowCommit;
}

export type RunFiles = ReadonlyMap<string, RunFile>;

/** The key a called workflow is kept under. */
export function runFileKey(ref: WorkflowRef): string {
  if (ref.repository === undefined) return ref.path.replace(/^\.\//, '');
  return `${ref.repository}/${ref.path}@${ref.ref ?? ''}`;
}

/**
 * Reads called workflows back from a run's files. `name` gives each file its name in the
 * parser's file table (and in errors); by default its key.
 */
export function storedWorkflowLoader(files: RunFiles, name: (ref: WorkflowRef, file: RunFile) => string = (ref) => runFileKey(ref)): WorkflowLoader {
  return {
    read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> {
      const file = files.get(runFileKey(ref));
      return Promise.resolve(file === undefined ? undefined : { name: name(ref, file), content: file.content });
    },
  };
}

export async function loadRunFiles(db: EngineExecutor, runId: number): Promise<RunFiles> {
  const rows = await db.selectFrom('engine_run_files').select(['path', 'content', 'ref', 'sha']).where('run_id', '=', runId).execute();
  return new Map(rows.map((row) => [row.path, row.ref !== null && row.sha !== null ? { content: row.content, commit: { ref: row.ref, sha: row.sha } } : { content: row.content }]));
}
