import { PassThrough, Readable } from 'node:stream';
import { apiRequest, type ServerConnection } from '../../../core/kernel/index.js';
import type { LocalRepository } from './local-repository.js';
import { describeWorkingTree, packWorkingTree, type PackResult } from './snapshot/index.js';

export interface SnapshotUploaded {
  readonly sha: string;
  readonly pack: PackResult;
}

/**
 * Packs the repository's working tree (uncommitted changes and untracked files that are not
 * ignored included) and streams it to `POST /api/v1/snapshots` as it is packed.
 */
export async function uploadSnapshot(connection: ServerConnection, repository: LocalRepository): Promise<SnapshotUploaded> {
  const subtree = repository.gitTop !== undefined && repository.gitTop !== repository.root;
  // HEAD is the snapshot's parent only when the snapshot is the whole work tree HEAD describes.
  const head = subtree ? undefined : (await describeWorkingTree(repository.root)).head;
  const query = new URLSearchParams({ repository: repository.name, ...(head === undefined ? {} : { parent: head }) });
  const out = new PassThrough();
  const packing = packWorkingTree(repository.root, { out, subtree });
  // A packing failure ends the upload early; its own error is then the one worth reporting.
  let packFailure: unknown;
  packing.catch((error: unknown) => {
    packFailure = error;
    out.destroy(error as Error);
  });
  let response: Response;
  try {
    response = await apiRequest(connection, 'POST', `/api/v1/snapshots?${query.toString()}`, Readable.toWeb(out), { contentType: 'application/gzip' });
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
