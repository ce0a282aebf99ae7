import { Readable } from 'node:stream';
import { apiRequest, type ServerConnection } from '../../../core/kernel/cli/index.js';
import {
  commitWorkingTree,
  readHistoryOffer,
  readShallowCommits,
  readWorkingTreeState,
  repositoryPaths,
  streamLocalGit,
  type HistoryTag,
  type WorkingTreeCommit,
} from './snapshot/index.js';

/** The pack route's body type (plugins/local-runs/history-routes.ts): a JSON line, then the pack. */
const PACK_BODY_TYPE = 'application/x-svc-snapshot-pack';

export interface CommitSent {
  /** The run's commit: HEAD for a clean tree, else a commit of the working tree whose parent is HEAD. */
  readonly sha: string;
  /** HEAD (absent before the first commit). */
  readonly head?: string;
  readonly branch?: string;
  /** Whether the run's commit is a commit of uncommitted changes (not HEAD). */
  readonly dirty: boolean;
  /** What travelled: nothing when the server had it all. */
  readonly objects: number;
  readonly bytes: number;
  readonly tags: number;
  /** Whether the client's history is shallow (the server then has only what it had). */
  readonly shallow: boolean;
  readonly warnings: readonly string[];
}

/** `POST /api/v1/snapshots/negotiate`'s answer. */
interface Negotiation {
  readonly complete: boolean;
  readonly common: string | null;
  readonly missing_objects: readonly string[];
}

/**
 * Sends the run's commit of the git work tree at `root` (its top) as the user's own commit:
 * HEAD itself when the tree is clean, else a commit of the working tree on top of HEAD made
 * without touching the repository (working-tree-commit.ts). One request offers it with its tags
 * and a sample of HEAD's history; the server answers what it lacks, and one more request sends
 * a pack of just that (`git pack-objects --revs --thin`, streamed), so an unchanged tree the
 * server has seen costs one small request, and a changed one a pack of the change. Undefined for
 * a repository the server cannot hold (SHA-256 objects): the caller sends a tar instead.
 */
export async function sendCommit(connection: ServerConnection, repository: string, root: string): Promise<CommitSent | undefined> {
  const [state, paths, offer] = await Promise.all([readWorkingTreeState(root), repositoryPaths(root), readHistoryOffer(root)]);
  if (paths.objectFormat !== 'sha1') return undefined;
  const warnings: string[] = state.nested.map((path) => `nested repository ${path} is not part of the run's commit (it has its own .git)`);
  let made: WorkingTreeCommit | undefined;
  try {
    if (state.dirty || state.head === undefined) made = await commitWorkingTree(root, paths, state);
    const sha = made?.sha ?? state.head ?? '';
    const shallow = await readShallowCommits(paths.shallow);
    if (shallow.length > 0) {
      warnings.push(
        "the repository is a shallow clone: jobs get the history it has, and git refuses a fetch without a depth from a shallow history (actions/checkout's fetch-depth: 0); `git fetch --unshallow` here gives them all of it",
      );
    }
    const negotiated = await apiRequest(connection, 'POST', '/api/v1/snapshots/negotiate', {
      repository,
      commit: sha,
      tags: offer.tags,
      candidates: offer.candidates,
      shallow: shallow.length > 0,
    });
    const answer = (await negotiated.json()) as Negotiation;
    const sent = answer.complete ? { objects: 0, bytes: 0 } : await sendPack(connection, { repository, root, sha, tags: offer.tags, shallow, answer, env: made?.env ?? {} });
    return {
      sha,
      ...(state.head === undefined ? {} : { head: state.head }),
      ...(state.branch === undefined ? {} : { branch: state.branch }),
      dirty: made !== undefined,
      ...sent,
      tags: offer.tags.length,
      shallow: shallow.length > 0,
      warnings,
    };
  } finally {
    await made?.remove();
  }
}

interface PackRequest {
  readonly repository: string;
  readonly root: string;
  readonly sha: string;
  readonly tags: readonly HistoryTag[];
  readonly shallow: readonly string[];
  readonly answer: Negotiation;
  /** Where git finds the working tree commit's objects. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * `POST /api/v1/snapshots/pack`: a JSON line saying what the pack completes, then the pack as
 * `git pack-objects` writes it (the commit, the tags' objects the server lacks, minus what
 * `common` reaches; thin against it). Answers what the server counted.
 */
async function sendPack(connection: ServerConnection, request: PackRequest): Promise<{ objects: number; bytes: number }> {
  const { answer } = request;
  const revs = [request.sha, ...answer.missing_objects, ...(answer.common === null ? [] : [`^${answer.common}`])];
  const thin = answer.common === null ? [] : ['--thin'];
  const pack = streamLocalGit(request.root, ['pack-objects', '--revs', '--stdout', '--quiet', '--delta-base-offset', ...thin], { env: request.env, input: `${revs.join('\n')}\n` });
  const header = `${JSON.stringify({ repository: request.repository, commit: request.sha, tags: request.tags, shallow: request.shallow })}\n`;
  const body = Readable.from(
    (async function* () {
      yield Buffer.from(header);
      yield* pack.stdout as AsyncIterable<Buffer>;
    })(),
  );
  try {
    const response = await apiRequest(connection, 'POST', '/api/v1/snapshots/pack', body, { contentType: PACK_BODY_TYPE });
    const received = (await response.json()) as { objects: number; bytes: number };
    return { objects: received.objects, bytes: received.bytes };
  } finally {
    pack.stop();
    body.destroy();
  }
}
