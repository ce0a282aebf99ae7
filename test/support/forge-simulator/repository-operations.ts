/**
 * The built-in operations: what resolving and downloading an action needs.
 *
 * - `repos/get-commit` (`GET /repos/{owner}/{repo}/commits/{ref}`): the sha alone with
 *   `Accept: application/vnd.github.sha`, else the commit object; an unknown ref is `422 No commit
 *   found for SHA`, an unknown (or, without the token, private) repository `404`, as the forge does.
 * - `git/get-ref` (`GET /repos/{owner}/{repo}/git/ref/{ref}`, `ref` as `tags/v1` or `heads/main`):
 *   that exact ref, else `404`.
 * - `repos/get-content` (`GET /repos/{owner}/{repo}/contents/{path}?ref=`): a file as JSON with its
 *   content in base64 (wrapped every 60 characters, as the forge sends it); `404` for a path that
 *   is not a file (directory listings are not simulated) or a ref the repository lacks.
 * - `repos/download-tarball-archive`, `repos/download-zipball-archive`: `302` to the web host's
 *   archive download (`/_codeload/{owner}/{repo}/legacy.tar.gz|zip/{ref}?token=…`), which is not
 *   part of the REST API (codeload on github.com); the description documents only the redirect,
 *   so an unknown repository or ref gets its `404` there.
 */
import type { ArchiveFormat, Repository } from './git-repositories.js';
import { forgeError, notFound, type ForgeContext, type OperationTable, type SimulatedRequest, type SimulatedResponse } from './operation-table.js';

const SHA_MEDIA = 'application/vnd.github.sha';

function wantsSha(request: SimulatedRequest): boolean {
  return String(request.headers['accept'] ?? '')
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === SHA_MEDIA);
}

async function commitObject(forge: ForgeContext, repository: Repository, sha: string): Promise<unknown> {
  const commit = await forge.repositories.describe(repository, sha);
  const api = `${forge.apiUrl}/repos/${repository.fullName}`;
  const web = `${forge.webUrl}/${repository.fullName}`;
  return {
    url: `${api}/commits/${sha}`,
    sha,
    node_id: `C_${Buffer.from(sha).toString('base64url').slice(0, 20)}`,
    html_url: `${web}/commit/${sha}`,
    comments_url: `${api}/commits/${sha}/comments`,
    commit: {
      url: `${api}/git/commits/${sha}`,
      author: commit.author,
      committer: commit.committer,
      message: commit.message,
      comment_count: 0,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    // Authors with no forge account, as for commits made by a bot.
    author: null,
    committer: null,
    parents: commit.parents.map((parent) => ({ sha: parent, url: `${api}/commits/${parent}`, html_url: `${web}/commit/${parent}` })),
  };
}

function archiveRedirect(format: ArchiveFormat) {
  return (request: SimulatedRequest, forge: ForgeContext): SimulatedResponse => {
    const owner = request.params['owner'] ?? '';
    const repo = request.params['repo'] ?? '';
    const repository = forge.visible(request);
    const token = repository === undefined ? '' : `?token=${forge.archiveToken(repository)}`;
    const name = repository?.fullName ?? `${owner}/${repo}`;
    const ref = (request.params['ref'] ?? '').split('/').map(encodeURIComponent).join('/');
    return { status: 302, headers: { location: `${forge.webUrl}/_codeload/${name}/legacy.${format}/${ref}${token}` } };
  };
}

async function getRef(request: SimulatedRequest, forge: ForgeContext): Promise<SimulatedResponse> {
  const repository = forge.visible(request);
  const qualified = request.params['ref'] ?? '';
  const target = repository === undefined ? undefined : await forge.repositories.ref(repository, qualified);
  if (repository === undefined || target === undefined) return notFound();
  const api = `${forge.apiUrl}/repos/${repository.fullName}`;
  return {
    status: 200,
    json: {
      ref: `refs/${qualified}`,
      node_id: `REF_${Buffer.from(qualified).toString('base64url')}`,
      url: `${api}/git/refs/${qualified}`,
      object: { type: target.type, sha: target.sha, url: `${api}/git/${target.type === 'tag' ? 'tags' : 'commits'}/${target.sha}` },
    },
  };
}

async function getContent(request: SimulatedRequest, forge: ForgeContext): Promise<SimulatedResponse> {
  const repository = forge.visible(request);
  if (repository === undefined) return notFound();
  const ref = request.query['ref'];
  const sha = await forge.repositories.resolve(repository, typeof ref === 'string' ? ref : 'HEAD');
  const path = request.params['path'] ?? '';
  const file = sha === undefined ? undefined : await forge.repositories.file(repository, sha, path);
  if (file === undefined) return notFound();
  const api = `${forge.apiUrl}/repos/${repository.fullName}`;
  const html = `${forge.webUrl}/${repository.fullName}/blob/${typeof ref === 'string' ? ref : 'main'}/${path}`;
  const self = `${api}/contents/${path}${typeof ref === 'string' ? `?ref=${encodeURIComponent(ref)}` : ''}`;
  const git = `${api}/git/blobs/${file.blob}`;
  return {
    status: 200,
    json: {
      type: 'file',
      encoding: 'base64',
      size: file.content.length,
      name: path.split('/').pop() ?? path,
      path,
      content: (file.content.toString('base64').match(/.{1,60}/g) ?? []).join('\n'),
      sha: file.blob,
      url: self,
      git_url: git,
      html_url: html,
      download_url: `${forge.webUrl}/_raw/${repository.fullName}/${sha}/${path}`,
      _links: { git, html, self },
    },
  };
}

export const REPOSITORY_OPERATIONS: OperationTable = {
  'git/get-ref': getRef,
  'repos/get-content': getContent,
  'repos/get-commit': async (request, forge) => {
    const repository = forge.visible(request);
    if (repository === undefined) return notFound();
    const ref = request.params['ref'] ?? '';
    const sha = await forge.repositories.resolve(repository, ref);
    if (sha === undefined) return forgeError(422, `No commit found for SHA: ${ref}`, 'https://docs.github.com/rest/commits/commits#get-a-commit');
    if (wantsSha(request)) return { status: 200, body: sha, contentType: `${SHA_MEDIA}; charset=utf-8` };
    return { status: 200, json: await commitObject(forge, repository, sha) };
  },
  'repos/download-tarball-archive': archiveRedirect('tar.gz'),
  'repos/download-zipball-archive': archiveRedirect('zip'),
};

/** The web host's archive download: the archive of `ref` when the token fits, else `404`. */
export async function codeload(forge: ForgeContext, tokens: ReadonlyMap<string, Repository>, url: URL): Promise<SimulatedResponse> {
  const match = /^\/_codeload\/([^/]+)\/([^/]+)\/legacy\.(tar\.gz|zip)\/(.+)$/.exec(url.pathname);
  const repository = tokens.get(url.searchParams.get('token') ?? '');
  if (match === null || repository === undefined || `${match[1]}/${match[2]}`.toLowerCase() !== repository.fullName.toLowerCase()) {
    return { status: 404, body: '404: Not Found', contentType: 'text/plain; charset=utf-8' };
  }
  const format = match[3] as ArchiveFormat;
  const sha = await forge.repositories.resolve(repository, decodeURIComponent(match[4] ?? ''));
  if (sha === undefined) return { status: 404, body: '404: Not Found', contentType: 'text/plain; charset=utf-8' };
  return {
    status: 200,
    body: await forge.repositories.archive(repository, sha, format),
    contentType: format === 'zip' ? 'application/zip' : 'application/x-gzip',
    headers: { 'content-disposition': `attachment; filename=${repository.owner}-${repository.name}-${sha.slice(0, 7)}.${format}` },
  };
}
