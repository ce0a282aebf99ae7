import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { archiveName, assertRunRef } from './archive-ref.js';
import { archiveStream, type ArchiveFormat } from './archive-stream.js';
import type { ResolveCheckout } from './checkout-target.js';

export interface ArchiveRoutesDeps {
  readonly resolve: ResolveCheckout;
}

/** Where `github.api_url` points (`<public url>/api/v3`); the group is registered under it. */
export const API_PREFIX = '/api/v3';

interface ArchiveRoute {
  readonly Params: { readonly owner: string; readonly repo: string; readonly '*'?: string };
}
type ArchiveRequest = FastifyRequest<ArchiveRoute>;

const FORMATS: readonly { readonly kind: string; readonly format: ArchiveFormat; readonly type: string; readonly extension: string }[] = [
  { kind: 'tarball', format: 'tar.gz', type: 'application/x-gzip', extension: 'tar.gz' },
  { kind: 'zipball', format: 'zip', type: 'application/zip', extension: 'zip' },
];

/**
 * `GET /repos/{owner}/{repo}/tarball[/{ref}]` and `.../zipball[/{ref}]` (octokit's
 * `downloadTarballArchive`/`downloadZipballArchive`, actions/checkout's path when git is missing
 * or too old). The forge answers 302 to a short-lived download URL; this answers 200 with the
 * archive at once (octokit reads either). The ref may hold slashes, encoded or not.
 */
export function registerArchiveRoutes(app: FastifyInstance, deps: ArchiveRoutesDeps): void {
  for (const { kind, format, type, extension } of FORMATS) {
    const handler = async (request: ArchiveRequest, reply: FastifyReply) => {
      const target = await deps.resolve(request.headers.authorization, request.params.owner, request.params.repo);
      assertRunRef(target, request.params['*'] ?? '');
      const name = archiveName(target);
      const body = await archiveStream(target.source.gitDir, target.sha, format, `${name}/`);
      return reply.type(type).header('content-disposition', `attachment; filename=${name}.${extension}`).send(body);
    };
    app.get<ArchiveRoute>(`/repos/:owner/:repo/${kind}`, handler);
    app.get<ArchiveRoute>(`/repos/:owner/:repo/${kind}/*`, handler);
  }
}
