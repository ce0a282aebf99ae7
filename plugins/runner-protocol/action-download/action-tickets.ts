/**
 * A download ticket for one admitted remote action: its commit, and signed, expiring URLs of its
 * archives in the blob store (`actions/<owner>/<repo>/<sha>.tar.gz` and `.zip`, lower-case names).
 * The remote repositories are asked in order (the mirror, then the forge: `coreServices.remoteRepositories`); an archive is
 * fetched or built once per commit, checked (one top-level directory), stored, and then shared by
 * every job — a second job on the same commit never reaches the source for it again.
 */
import { NotImplementedError, UpstreamError } from '../../../core/kernel/index.js';
import { splitRepositoryName, type ArchiveFormat, type BlobStore, type BlobUrlSigner, type RemoteRepositories, type RepositorySource } from '../../../core/ports/index.js';
import { actionKey, type RemoteAction } from './action-refs.js';
import { readArchiveFile, topLevelDirectory } from './archive-files.js';

/** What the runner reads for one action (`ActionDownloadInfo`, §5.5). */
export interface ActionTicket {
  readonly nameWithOwner: string;
  readonly resolvedNameWithOwner: string;
  readonly ref: string;
  readonly resolvedSha: string;
  readonly tarballUrl: string;
  readonly zipballUrl: string;
}

/** A ticket, or why no source holds the action (a message for the user, not retried). */
export type TicketOutcome = { readonly ticket: ActionTicket } | { readonly unresolvable: string };

export interface ActionTicketsDeps {
  /** The mirror, then the forge; no sources when neither is configured. */
  readonly repositories: RemoteRepositories;
  readonly blobs: BlobStore;
  readonly signer: BlobUrlSigner;
  /** The server's public base URL (signed paths are made absolute with it). */
  readonly baseUrl: () => string;
  /** Lifetime of the signed URLs. */
  readonly ttlSeconds?: number;
}

export interface ActionTickets {
  /** A file of the action's repository at the commit its ref names; undefined when no source holds it. */
  readFile(action: RemoteAction, path: string): Promise<string | undefined>;
  /** Throws `NotImplementedError` with no source, `UpstreamError`/`UnavailableError` when a source fails. */
  issue(action: RemoteAction): Promise<TicketOutcome>;
}

/** An hour: the runner downloads in "Set up job", with up to three attempts and back-off. */
export const TICKET_TTL_SECS = 3600;

export function archiveKey(nameWithOwner: string, sha: string, format: ArchiveFormat): string {
  const name = splitRepositoryName(nameWithOwner);
  if (name === undefined) throw new TypeError(`'${nameWithOwner}' is not owner/repo`);
  return `actions/${name.owner.toLowerCase()}/${name.repo.toLowerCase()}/${sha}.${format}`;
}

export function noSourceError(action: RemoteAction): NotImplementedError {
  return new NotImplementedError(
    `action ${actionKey(action)}: no action source is configured (set SVC_FORGE_API_URL, with SVC_FORGE_TOKEN for private repositories, ` +
      'or SVC_ACTIONS_MIRROR_DIR for a local mirror); downloading actions without one',
    { details: { action: actionKey(action) } },
  );
}

export function createActionTickets(deps: ActionTicketsDeps): ActionTickets {
  const ttlSeconds = deps.ttlSeconds ?? TICKET_TTL_SECS;
  // Two jobs asking for a commit not stored yet share one download.
  const inflight = new Map<string, Promise<void>>();

  const store = async (source: RepositorySource, action: RemoteAction, sha: string, format: ArchiveFormat): Promise<string> => {
    const key = archiveKey(action.nameWithOwner, sha, format);
    if ((await deps.blobs.stat(key)) !== undefined) return key;
    let pending = inflight.get(key);
    if (pending === undefined) {
      pending = (async () => {
        const archive = await source.archive(action.nameWithOwner, sha, format);
        if (format === 'tar.gz') {
          const top = await topLevelDirectory(archive);
          if ('problem' in top) {
            throw new UpstreamError(`the tarball of ${action.nameWithOwner}@${sha} from ${source.label} cannot be used: ${top.problem}`, { code: 'action_archive_invalid' });
          }
        }
        await deps.blobs.put(key, archive);
      })().finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    await pending;
    return key;
  };
  const signed = (key: string): string => `${deps.baseUrl().replace(/\/+$/, '')}${deps.signer.sign({ key, method: 'GET', ttlSeconds })}`;

  return {
    async readFile(action, path) {
      if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
      const found = await deps.repositories.locate(action.nameWithOwner, action.ref);
      if ('missing' in found) return undefined;
      // The mirror reads one file with git; from the forge, the tarball the ticket needs anyway
      // is downloaded once and read, so the batches of a job cost no request per manifest.
      if (found.source.kind === 'mirror') return found.source.readFile(action.nameWithOwner, found.sha, path);
      const archive = await deps.blobs.get(await store(found.source, action, found.sha, 'tar.gz'));
      return archive === undefined ? undefined : readArchiveFile(archive, path);
    },
    async issue(action) {
      if (deps.repositories.sources.length === 0) throw noSourceError(action);
      const found = await deps.repositories.locate(action.nameWithOwner, action.ref);
      if ('missing' in found) return { unresolvable: `action ${actionKey(action)}: ${found.missing.join('; ')}` };
      const [tarball, zipball] = await Promise.all([store(found.source, action, found.sha, 'tar.gz'), store(found.source, action, found.sha, 'zip')]);
      return {
        ticket: {
          nameWithOwner: action.nameWithOwner,
          resolvedNameWithOwner: action.nameWithOwner,
          ref: action.ref,
          resolvedSha: found.sha,
          tarballUrl: signed(tarball),
          zipballUrl: signed(zipball),
        },
      };
    },
  };
}
