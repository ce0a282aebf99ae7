/**
 * A download ticket for one admitted remote action: its commit, and signed, expiring URLs of its
 * archives in the blob store (`actions/<owner>/<repo>/<sha>.tar.gz` and `.zip`, built once from
 * the mirror, then shared by every job). Sources in order: the mirror, then the forge — which is
 * not built yet, so a ref the mirror does not hold is a `not_implemented` error naming it.
 */
import { NotFoundError, NotImplementedError } from '../../../core/kernel/index.js';
import type { BlobStore, BlobUrlSigner } from '../../../core/ports/index.js';
import { actionKey, splitName, type RemoteAction } from './action-refs.js';
import type { ActionMirror, ArchiveFormat } from './git-mirror.js';

/** What the runner reads for one action (`ActionDownloadInfo`, §5.5). */
export interface ActionTicket {
  readonly nameWithOwner: string;
  readonly resolvedNameWithOwner: string;
  readonly ref: string;
  readonly resolvedSha: string;
  readonly tarballUrl: string;
  readonly zipballUrl: string;
}

export interface ActionTicketsDeps {
  /** Undefined when `SVC_ACTIONS_MIRROR_DIR` is not set. */
  readonly mirror: ActionMirror | undefined;
  readonly blobs: BlobStore;
  readonly signer: BlobUrlSigner;
  /** The server's public base URL (signed paths are made absolute with it). */
  readonly baseUrl: () => string;
  /** Lifetime of the signed URLs. */
  readonly ttlSeconds?: number;
}

export interface ActionTickets {
  /** The commit a reference resolves to (for reading a remote composite's manifest); undefined when unknown. */
  resolve(action: RemoteAction): Promise<string | undefined>;
  readFile(action: RemoteAction, path: string): Promise<string | undefined>;
  issue(action: RemoteAction): Promise<ActionTicket>;
}

/** An hour: the runner downloads in "Set up job", with up to three attempts and back-off. */
export const TICKET_TTL_SECS = 3600;

export function archiveKey(nameWithOwner: string, sha: string, format: ArchiveFormat): string {
  const name = splitName(nameWithOwner);
  if (name === undefined) throw new TypeError(`'${nameWithOwner}' is not owner/repo`);
  return `actions/${name.owner}/${name.repo}/${sha}.${format}`;
}

export function createActionTickets(deps: ActionTicketsDeps): ActionTickets {
  const { mirror } = deps;
  const ttlSeconds = deps.ttlSeconds ?? TICKET_TTL_SECS;
  const stored = async (action: RemoteAction, sha: string, format: ArchiveFormat): Promise<string> => {
    const key = archiveKey(action.nameWithOwner, sha, format);
    if ((await deps.blobs.stat(key)) === undefined) {
      // Same commit, same bytes: two jobs racing here write the same archive.
      await deps.blobs.put(key, await (mirror as ActionMirror).archive(action.nameWithOwner, sha, format));
    }
    return `${deps.baseUrl().replace(/\/+$/, '')}${deps.signer.sign({ key, method: 'GET', ttlSeconds })}`;
  };
  const resolve = async (action: RemoteAction) => (mirror === undefined ? undefined : mirror.resolve(action.nameWithOwner, action.ref));
  return {
    resolve,
    async readFile(action, path) {
      const sha = await resolve(action);
      return sha === undefined || mirror === undefined ? undefined : mirror.readFile(action.nameWithOwner, sha, path);
    },
    async issue(action) {
      if (mirror !== undefined && (await mirror.has(action.nameWithOwner))) {
        const sha = await mirror.resolve(action.nameWithOwner, action.ref);
        if (sha === undefined) {
          throw new NotFoundError(`action ${actionKey(action)}: the mirror's ${action.nameWithOwner} has no tag, branch or commit '${action.ref}'`, {
            code: 'action_ref_not_found',
          });
        }
        return {
          nameWithOwner: action.nameWithOwner,
          resolvedNameWithOwner: action.nameWithOwner,
          ref: action.ref,
          resolvedSha: sha,
          tarballUrl: await stored(action, sha, 'tar.gz'),
          zipballUrl: await stored(action, sha, 'zip'),
        };
      }
      const where = mirror === undefined ? 'SVC_ACTIONS_MIRROR_DIR is not set' : `the mirror has no ${action.nameWithOwner}.git`;
      throw new NotImplementedError(`downloading actions from the forge (${actionKey(action)}; ${where})`, { details: { action: actionKey(action) } });
    },
  };
}
