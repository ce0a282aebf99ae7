import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, InputError } from '../../core/kernel/index.js';
import type { ResolveCheckout } from './checkout-target.js';
import { installGitErrorHandler } from './git-errors.js';
import { advertiseRefs, gitProtocol, uploadPack, type UploadPackAnswer, type UploadPackDeps } from './upload-pack.js';

export interface GitRoutesDeps extends UploadPackDeps {
  readonly resolve: ResolveCheckout;
}

interface RepoParams {
  readonly owner: string;
  readonly repo: string;
}

const UPLOAD_PACK_REQUEST = 'application/x-git-upload-pack-request';
const READ_ONLY = 'the checkout relay is read-only: pushing to a job\'s repository is not accepted (push to your own remote instead)';

/**
 * Git smart HTTP, upload-pack only, at `<server_url>/<owner>/<repo>[.git]` (where actions/checkout
 * and `git clone` point): `GET info/refs?service=git-upload-pack` and `POST git-upload-pack`.
 * Only these tails are routed, so the root-level parameters shadow nothing. Receive-pack (push)
 * is 403; the dumb protocol (no `service`) is 403 too.
 */
export function registerGitRoutes(app: FastifyInstance, deps: GitRoutesDeps): void {
  installGitErrorHandler(app);
  // The body is git's; it is streamed into upload-pack unread (no size limit, no buffering).
  app.addContentTypeParser([UPLOAD_PACK_REQUEST, 'application/x-git-receive-pack-request'], (_request, _payload, done) => done(null));

  app.get<{ Params: RepoParams; Querystring: { service?: string } }>('/:owner/:repo/info/refs', async (request, reply) => {
    const service = request.query.service;
    if (service === 'git-receive-pack') throw new ForbiddenError(READ_ONLY, { code: 'read_only' });
    if (service !== 'git-upload-pack') throw new ForbiddenError('the checkout relay speaks smart HTTP only: use a git client (info/refs?service=git-upload-pack)', { code: 'smart_http_only' });
    const target = await deps.resolve(request.headers.authorization, request.params.owner, request.params.repo);
    const answer = await advertiseRefs(deps, { target, protocol: gitProtocol(request.headers['git-protocol']) });
    return send(request, reply, answer, 'application/x-git-upload-pack-advertisement');
  });

  app.post<{ Params: RepoParams }>('/:owner/:repo/git-upload-pack', async (request, reply) => {
    if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== UPLOAD_PACK_REQUEST) {
      throw new InputError(`git-upload-pack takes ${UPLOAD_PACK_REQUEST}`, { code: 'invalid_content_type' });
    }
    const target = await deps.resolve(request.headers.authorization, request.params.owner, request.params.repo);
    const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'identity') {
      throw new InputError(`Content-Encoding ${encoding} is not supported (gzip or none)`, { code: 'unsupported_encoding' });
    }
    const answer = await uploadPack(deps, { target, protocol: gitProtocol(request.headers['git-protocol']) }, request.raw, encoding !== 'identity');
    return send(request, reply, answer, 'application/x-git-upload-pack-result');
  });

  const forbidden = async () => {
    throw new ForbiddenError(READ_ONLY, { code: 'read_only' });
  };
  app.post('/:owner/:repo/git-receive-pack', forbidden);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: UploadPackAnswer, contentType: string): FastifyReply {
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) answer.stop();
  });
  request.raw.once('error', () => answer.stop());
  return reply
    .header('cache-control', 'no-cache, max-age=0, must-revalidate')
    .header('pragma', 'no-cache')
    .header('expires', 'Fri, 01 Jan 1980 00:00:00 GMT')
    .type(contentType)
    .send(answer.output);
}
