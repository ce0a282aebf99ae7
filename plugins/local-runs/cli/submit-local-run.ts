import { PassThrough } from 'node:stream';
import { apiRequest, type ApiResponse, type ServerConnection } from '../../../core/kernel/cli/index.js';
import type { LocalRepository } from './local-repository.js';
import { headCommit, packWorkingTree, type PackResult } from './snapshot/index.js';

export interface SnapshotUploaded {
  readonly sha: string;
  readonly pack: PackResult;
}

/**
 * Packs the repository's working tree (uncommitted changes and untracked files that are not
 * ignored included) and streams it to `POST /api/v1/snapshots` as it is packed. Packing starts
 * at once; the request only waits for HEAD (the snapshot's parent, in its query), which git
 * finds meanwhile.
 */
export async function uploadSnapshot(connection: ServerConnection, repository: LocalRepository): Promise<SnapshotUploaded> {
  const subtree = repository.gitTop !== undefined && repository.gitTop !== repository.root;
  const out = new PassThrough();
  const packing = packWorkingTree(repository.root, { out, subtree, gitTop: repository.gitTop ?? null });
  // A packing failure ends the upload early; its own error is then the one worth reporting.
  let packFailure: unknown;
  packing.catch((error: unknown) => {
    packFailure = error;
    out.destroy(error as Error);
  });
  let response: ApiResponse;
  try {
    // HEAD is the snapshot's parent only when the snapshot is the whole work tree HEAD describes.
    const head = subtree || repository.gitTop === undefined ? undefined : await headCommit(repository.gitTop);
    const query = new URLSearchParams({ repository: repository.name, ...(head === undefined ? {} : { parent: head }) });
    response = await apiRequest(connection, 'POST', `/api/v1/snapshots?${query.toString()}`, out, { contentType: 'application/gzip' });
  } catch (error) {
    if (packFailure !== undefined) throw packFailure;
    // Nobody reads the archive any more: stop packing it.
    out.destroy();
    await packing.catch(() => undefined);
    throw error;
  }
  const pack = await packing;
  const body = (await response.json()) as { sha: string };
  return { sha: body.sha, pack };
}

export interface SubmitBody {
  readonly repository: string;
  readonly snapshot: string;
  readonly workflow: string;
  readonly event: string;
  readonly base?: string;
  readonly payload?: Record<string, unknown>;
  readonly job?: readonly string[];
}

export interface SubmittedRun {
  readonly run_id: number;
  readonly workflow: string;
  readonly status: string;
  readonly url: string;
  readonly warnings: readonly string[];
}

/** `POST /api/v1/runs`: the run the server created for the one workflow file. */
export async function submitRun(connection: ServerConnection, body: SubmitBody): Promise<SubmittedRun> {
  const response = await apiRequest(connection, 'POST', '/api/v1/runs', body);
  const answer = (await response.json()) as { runs: readonly SubmittedRun[] };
  const [run] = answer.runs;
  if (run === undefined) throw new Error(`the server created no run for ${body.workflow}`);
  return run;
}
