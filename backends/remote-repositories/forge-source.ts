/**
 * The forge as a source of remote repositories, over its REST API (`SVC_FORGE_API_URL`, a GitHub
 * REST base such as `https://api.github.com` or `https://ghe.example/api/v3`):
 * `GET /repos/{owner}/{repo}/commits/{ref}` with `Accept: application/vnd.github.sha` resolves a
 * ref to its commit, `GET /repos/{owner}/{repo}/git/ref/tags|heads/{ref}` says whether it is a
 * tag or a branch, `GET /repos/{owner}/{repo}/contents/{path}?ref={sha}` reads one file, and
 * `GET /repos/{owner}/{repo}/tarball|zipball/{sha}` (a redirect to the archive host, followed)
 * downloads the archive server-side. `SVC_FORGE_TOKEN` is sent as `Bearer` to the API only: fetch
 * drops `Authorization` on a redirect to another origin, and the runner never sees the token.
 * Every call goes through the forge's client (`coreServices.forgeClients`, core/forge): while its
 * circuit breaker is open a read fails fast with `forge_unavailable` (503) saying when svc retries.
 *
 * A ref's commit is remembered for `REF_CACHE_MS` (a ref the forge does not know, for
 * `MISSING_REF_CACHE_MS`), so the batches of one job (each reads the composite manifests of the
 * declared remotes for admission, then issues tickets) and the jobs of one run cost one lookup.
 * A ref the forge does not know is a `missing` answer; the forge unreachable, rate-limiting or failing is an
 * `UnavailableError` (503) or `UpstreamError` (502) naming it, never a 500.
 */
import { packageInfo, UnavailableError, UpstreamError } from '../../core/kernel/index.js';
import { splitRepositoryName, type ArchiveFormat, type Clock, type ForgeClient, type RefResolution, type RepositorySource } from '../../core/ports/index.js';
import { MAX_ARCHIVE_BYTES } from './git-mirror.js';

export interface ForgeSourceOptions {
  /** The forge's client: its REST base, and the breaker every read goes through. */
  readonly client: ForgeClient;
  readonly token: string | undefined;
  readonly clock: Clock;
  readonly refCacheMs?: number;
  readonly missingRefCacheMs?: number;
  readonly requestTimeoutMs?: number;
  readonly archiveTimeoutMs?: number;
  readonly maxArchiveBytes?: number;
}

/** How long a resolved ref is reused: a moved tag is seen by jobs that start after this. */
export const REF_CACHE_MS = 60_000;
/** How long "no such ref" is reused: a tag just pushed is seen this soon. */
export const MISSING_REF_CACHE_MS = 15_000;
const REF_CACHE_ENTRIES = 1024;
const API_VERSION = '2022-11-28';
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const ARCHIVE_MAGIC: Readonly<Record<ArchiveFormat, readonly number[]>> = { 'tar.gz': [0x1f, 0x8b], zip: [0x50, 0x4b] };

/** `ref` as URL path segments (the API takes `releases/v1` as is), or undefined when it could climb out of the route. */
function refPath(ref: string): string | undefined {
  const segments = ref.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return segments.map(encodeURIComponent).join('/');
}

function transportProblem(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return typeof cause.message === 'string' ? cause.message : cause.code;
  return error instanceof Error ? error.message : String(error);
}

async function forgeMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return `: ${message.slice(0, 200)}`;
  } catch {
    // not JSON: the status says enough
  }
  return '';
}

function rateLimited(response: Response): boolean {
  return response.status === 429 || (response.status === 403 && (response.headers.get('x-ratelimit-remaining') === '0' || response.headers.has('retry-after')));
}

export function createForgeSource(options: ForgeSourceOptions): RepositorySource {
  const base = options.client.apiUrl;
  const refCacheMs = options.refCacheMs ?? REF_CACHE_MS;
  const missingRefCacheMs = options.missingRefCacheMs ?? MISSING_REF_CACHE_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const archiveTimeoutMs = options.archiveTimeoutMs ?? 10 * 60_000;
  const maxArchiveBytes = options.maxArchiveBytes ?? MAX_ARCHIVE_BYTES;
  const refs = new Map<string, { readonly resolution: RefResolution; readonly until: number }>();
  const remember = (key: string, resolution: RefResolution, until: number): RefResolution => {
    refs.delete(key);
    if (refs.size >= REF_CACHE_ENTRIES) refs.delete(refs.keys().next().value as string);
    refs.set(key, { resolution, until });
    return resolution;
  };
  const forge = `the forge at ${base}`;
  const headers = (accept: string): Record<string, string> => ({
    accept,
    'user-agent': `svc/${packageInfo().version}`,
    'x-github-api-version': API_VERSION,
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  });

  const get = async (path: string, accept: string, timeoutMs: number): Promise<Response> => {
    try {
      return await options.client.fetch(`${base}${path}`, { headers: headers(accept), redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error instanceof UnavailableError) throw error; // the breaker is open: its message says when svc retries
      throw new UnavailableError(`${forge} is unreachable (GET ${path}: ${transportProblem(error, timeoutMs)})`, { code: 'forge_unavailable', cause: error });
    }
  };

  /** The error for an answer that is neither success nor "not there". */
  const failure = async (response: Response, path: string): Promise<Error> => {
    const said = `${response.status}${await forgeMessage(response)}`;
    if (rateLimited(response)) {
      const retry = response.headers.get('retry-after') ?? response.headers.get('x-ratelimit-reset');
      return new UnavailableError(`${forge} is rate-limiting svc (GET ${path}: ${said})${retry === null ? '' : `; retry-after/reset ${retry}`}`, { code: 'forge_rate_limited' });
    }
    if (response.status === 401) return new UpstreamError(`${forge} refused svc's credential (GET ${path}: ${said}); check SVC_FORGE_TOKEN`, { code: 'forge_auth_failed' });
    if (response.status === 503) return new UnavailableError(`${forge} is unavailable (GET ${path}: ${said})`, { code: 'forge_unavailable' });
    return new UpstreamError(`${forge} failed (GET ${path}: ${said})`, { code: 'forge_failed' });
  };

  const repositoryPath = (nameWithOwner: string): string | undefined => {
    const name = splitRepositoryName(nameWithOwner);
    return name === undefined ? undefined : `/repos/${encodeURIComponent(name.owner)}/${encodeURIComponent(name.repo)}`;
  };

  /** The JSON of a 200 answer; the body cut on the way is the forge unavailable. */
  const json = async (response: Response, path: string): Promise<unknown> => {
    const text = await response.text().catch((error: unknown) => {
      throw new UnavailableError(`${forge}: the answer to GET ${path} was cut (${transportProblem(error, requestTimeoutMs)})`, { code: 'forge_unavailable', cause: error });
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UpstreamError(`${forge} answered GET ${path} with something that is not JSON`, { code: 'forge_failed' });
    }
  };

  /** Whether `refs/<kind>/<ref>` exists (`git/get-ref` is an exact match; 404 when not). */
  const hasRef = async (repository: string, qualified: string): Promise<boolean> => {
    const path = `${repository}/git/ref/${qualified}`;
    const response = await get(path, 'application/vnd.github+json', requestTimeoutMs);
    if (response.status === 200) {
      await response.body?.cancel();
      return true;
    }
    if (response.status === 404 || response.status === 409) {
      await response.body?.cancel();
      return false;
    }
    throw await failure(response, path);
  };

  return {
    kind: 'forge',
    label: forge,
    location: `${forge} (SVC_FORGE_API_URL)`,
    async resolve(nameWithOwner: string, ref: string): Promise<RefResolution> {
      const repository = repositoryPath(nameWithOwner);
      const escaped = refPath(ref);
      if (repository === undefined || escaped === undefined) return { missing: `'${ref}' is not a ref ${forge} can look up` };
      const cacheKey = `${nameWithOwner.toLowerCase()}@${ref}`;
      const now = options.clock.now();
      const cached = refs.get(cacheKey);
      if (cached !== undefined && cached.until > now) return cached.resolution;

      const path = `${repository}/commits/${escaped}`;
      const response = await get(path, 'application/vnd.github.sha', requestTimeoutMs);
      if (response.status === 200) {
        const text = await response.text().catch((error: unknown) => {
          throw new UnavailableError(`${forge}: the answer to GET ${path} was cut (${transportProblem(error, requestTimeoutMs)})`, { code: 'forge_unavailable', cause: error });
        });
        const sha = text.trim().toLowerCase();
        if (!SHA.test(sha)) throw new UpstreamError(`${forge} answered GET ${path} with no commit sha`, { code: 'forge_failed' });
        return remember(cacheKey, { sha }, now + refCacheMs);
      }
      // 404: no such repository (or the token cannot see it); 422: no such ref; 409: an empty repository.
      if (response.status === 404 || response.status === 422 || response.status === 409) {
        await response.body?.cancel();
        const hint = options.token === undefined ? ' (a private repository needs SVC_FORGE_TOKEN)' : ' (or SVC_FORGE_TOKEN cannot read it)';
        return remember(cacheKey, { missing: `${forge} has no repository ${nameWithOwner} with a tag, branch or commit '${ref}'${hint}` }, now + missingRefCacheMs);
      }
      if (response.status === 403 && !rateLimited(response)) {
        return { missing: `${forge} refused access to ${nameWithOwner} (403${await forgeMessage(response)}); check that SVC_FORGE_TOKEN can read it` };
      }
      throw await failure(response, path);
    },

    async refName(nameWithOwner, ref, sha) {
      const repository = repositoryPath(nameWithOwner);
      const escaped = refPath(ref);
      // A full sha names itself; so does a ref the API cannot be asked about.
      if (repository === undefined || escaped === undefined || ref.toLowerCase() === sha) return sha;
      // commits/{ref} prefers a tag to a branch of the same name, as GitHub does for `uses:`.
      if (await hasRef(repository, `tags/${escaped}`)) return `refs/tags/${ref}`;
      if (await hasRef(repository, `heads/${escaped}`)) return `refs/heads/${ref}`;
      return sha;
    },

    async readFile(nameWithOwner, sha, file) {
      const repository = repositoryPath(nameWithOwner);
      const escaped = refPath(file);
      if (repository === undefined || escaped === undefined || !SHA.test(sha)) return undefined;
      const path = `${repository}/contents/${escaped}?ref=${sha}`;
      const response = await get(path, 'application/vnd.github+json', requestTimeoutMs);
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (response.status !== 200) throw await failure(response, path);
      const answer = await json(response, path);
      // A directory is a list; a submodule has no content: neither is a file to read.
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined;
      const entry = answer as { readonly type?: unknown; readonly encoding?: unknown; readonly content?: unknown };
      if (entry.type !== 'file') return undefined;
      if (entry.encoding !== 'base64' || typeof entry.content !== 'string') {
        throw new UpstreamError(`${forge} did not send the content of ${file} in ${nameWithOwner}@${sha} (GET ${path}: encoding ${String(entry.encoding)}; files over 1 MB are not served inline)`, {
          code: 'forge_failed',
        });
      }
      return Buffer.from(entry.content, 'base64').toString('utf8');
    },

    async archive(nameWithOwner, sha, format) {
      const repository = repositoryPath(nameWithOwner);
      if (repository === undefined || !SHA.test(sha)) throw new TypeError(`cannot download ${nameWithOwner}@${sha}`);
      const path = `${repository}/${format === 'zip' ? 'zipball' : 'tarball'}/${sha}`;
      const response = await get(path, 'application/vnd.github+json', archiveTimeoutMs);
      if (response.status !== 200) throw await failure(response, path);
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > maxArchiveBytes) throw new UpstreamError(`${forge}: the ${format} archive of ${nameWithOwner}@${sha} is larger than ${maxArchiveBytes} bytes`, { code: 'action_archive_too_large' });
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body ?? []) {
          size += chunk.byteLength;
          if (size > maxArchiveBytes) {
            await response.body?.cancel();
            throw new UpstreamError(`${forge}: the ${format} archive of ${nameWithOwner}@${sha} is larger than ${maxArchiveBytes} bytes`, { code: 'action_archive_too_large' });
          }
          chunks.push(Buffer.from(chunk));
        }
      } catch (error) {
        if (error instanceof UpstreamError) throw error;
        throw new UnavailableError(`${forge}: the download of ${path} was cut (${transportProblem(error, archiveTimeoutMs)})`, { code: 'forge_unavailable', cause: error });
      }
      const archive = Buffer.concat(chunks);
      if (!ARCHIVE_MAGIC[format].every((byte, index) => archive[index] === byte)) {
        throw new UpstreamError(`${forge} answered GET ${path} with something that is not a ${format} archive`, { code: 'forge_failed' });
      }
      return archive;
    },
  };
}
