import { PassThrough } from 'node:stream';
import { apiRequest, type ApiResponse, type ServerConnection } from '../../../core/kernel/cli/index.js';
import type { LocalRepository } from './local-repository.js';
import { sendCommit, type CommitSent } from './send-commit.js';
import { headCommit, packWorkingTree, type PackResult } from './snapshot/index.js';

/** How the run's commit reached the server: the user's own commit (and history), or a tar of the files. */
export type SnapshotUploaded = ({ readonly kind: 'commit' } & CommitSent) | { readonly kind: 'tree'; readonly sha: string; readonly pack: PackResult; readonly warnings: readonly string[] };

/**
 * Gets the run's commit to the server. At the top of a git work tree, the user's own commit
 * with its history and tags (send-commit.ts): `GITHUB_SHA` is HEAD for a clean tree. Elsewhere
 * (a directory outside git, a project with its own workflows inside a bigger repository, a
 * SHA-256 repository), a tar of the files becomes one commit on the server, as before.
 */
export async function uploadSnapshot(connection: ServerConnection, repository: LocalRepository): Promise<SnapshotUploaded> {
  if (repository.gitTop !== undefined && repository.gitTop === repository.root) {
    const sent = await sendCommit(connection, repository.name, repository.root);
    if (sent !== undefined) return { kind: 'commit', ...sent };
  }
  const { sha, pack } = await uploadTree(connection, repository);
  return { kind: 'tree', sha, pack, warnings: pack.warnings };
}

/** The note `svc run` prints about it. */
export function describeUpload(uploaded: SnapshotUploaded, repository: LocalRepository): string {
  const short = uploaded.sha.slice(0, 12);
  if (uploaded.kind === 'tree') {
    return `snapshot of ${repository.root} as ${repository.name}: ${uploaded.pack.files} files, ${size(uploaded.pack.bytes)} (${short})`;
  }
  const where = uploaded.branch ?? 'HEAD';
  const what =
    uploaded.head === undefined
      ? 'the working tree before the first commit'
      : uploaded.dirty
        ? `the working tree of ${where} (${uploaded.head.slice(0, 12)}) with uncommitted changes`
        : `${where}, clean`;
  const sent = uploaded.objects === 0 && uploaded.bytes === 0 ? 'the server had it' : `sent ${uploaded.objects} objects (${size(uploaded.bytes)})`;
  return `commit ${short} of ${repository.root} as ${repository.name}: ${what}; ${sent}`;
}

/**
 * Packs the repository's working tree (uncommitted changes and untracked files that are not
 * ignored included) and streams it to `POST /api/v1/snapshots` as it is packed. Packing starts
 * at once; the request only waits for HEAD (the snapshot's parent, in its query), which git
 * finds meanwhile.
 */
async function uploadTree(connection: ServerConnection, repository: LocalRepository): Promise<{ sha: string; pack: PackResult }> {
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

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
