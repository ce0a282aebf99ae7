/**
 * `POST /actions/build/{planId}/jobs/{jobId}/runnerresolve/actions` (§5.5, run-service flow): the
 * launch service's action resolution, which a Worker on a `RunnerJobRequest` job calls at the
 * origin of `system.github.launch_endpoint` (the runner resolves this absolute path against it, so
 * any path prefix of SVC_PUBLIC_URL is dropped: the route sits at the server root). Job token as
 * `Bearer`; `planId` and `jobId` must be the token's. Same batch as the legacy route
 * (batch-tickets.ts), in snake_case:
 *
 * - `{actions: [{action, version, path}], actions_dependencies?}` →
 *   `{actions: {"<action>@<version>": {name, resolved_name, resolved_sha, tar_url, zip_url, version}}}`;
 *   `actions_dependencies` (lockfile pins) are accepted and not enforced.
 * - actions no source holds: `422 {"errors": {"<key>": {"message"}}}` — the runner shows these
 *   messages and does not retry (`actions_display_helpful_actions_download_errors`).
 * - anything else (403 undeclared, 501 no source, 502/503 forge): the status with `{code, message}`,
 *   and the message as the reason phrase too, since that is all the runner prints of it.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ForbiddenError, isSvcError, type ErrorBody } from '../../../core/kernel/index.js';
import { jobTokenOf, guardJobRoutes } from '../auth/index.js';
import { remoteAction } from './action-download-route.js';
import { MAX_BATCH, ticketBatch, type ActionDownloadDeps } from './batch-tickets.js';

export const RUNNER_RESOLVE_PATH = '/actions/build/:planId/jobs/:jobId/runnerresolve/actions';

const guid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } as const;
const Params = { type: 'object', required: ['planId', 'jobId'], properties: { planId: guid, jobId: guid } } as const;
const Body = {
  type: 'object',
  required: ['actions'],
  properties: {
    actions: {
      type: 'array',
      maxItems: MAX_BATCH,
      items: {
        type: 'object',
        required: ['action', 'version'],
        properties: { action: { type: 'string', minLength: 3, maxLength: 200 }, version: { type: 'string', minLength: 1, maxLength: 255 }, path: { type: ['string', 'null'] } },
      },
    },
    actions_dependencies: { type: ['array', 'null'], maxItems: 10_000, items: { type: 'string', maxLength: 1024 } },
  },
} as const;

interface RequestShape {
  Params: { planId: string; jobId: string };
  Body: { actions: { action: string; version: string; path?: string | null }[]; actions_dependencies?: string[] | null };
}

/** The launch service's `ActionDownloadInfoResponse`. */
export interface ResolvedActionWire {
  readonly name: string;
  readonly resolved_name: string;
  readonly resolved_sha: string;
  readonly tar_url: string;
  readonly zip_url: string;
  readonly version: string;
}

const MAX_REASON = 300;

/** A reason phrase Node accepts (visible ASCII and spaces, one line). */
function reasonPhrase(message: string): string {
  const clean = message.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return clean.length > MAX_REASON ? `${clean.slice(0, MAX_REASON - 3)}...` : clean;
}

function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  if (body.message !== '') reply.raw.statusMessage = reasonPhrase(body.message);
  return reply.status(status).type('application/json').send(body);
}

export async function registerRunnerResolveRoute(app: FastifyInstance, deps: ActionDownloadDeps): Promise<void> {
  await app.register(async (scoped) => {
    scoped.setErrorHandler((error: FastifyError, request, reply) => {
      if (isSvcError(error)) {
        if (error.status >= 500) request.log.error({ err: error }, error.message);
        return sendError(reply, error.status, { code: error.code, message: error.message });
      }
      if (error.validation) return sendError(reply, 400, { code: 'invalid_request', message: `${error.validationContext ?? 'request'} ${error.message.replace(/^(body|params)\s*/, '')}` });
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, { code: 'invalid_request', message: error.message });
      request.log.error({ err: error }, 'unhandled error on the action resolution route');
      return sendError(reply, 500, { code: 'internal_error', message: 'internal error; the server log has the details' });
    });
    // Checks the token and that `:planId` is its plan (403 otherwise).
    guardJobRoutes(scoped, deps.jobTokens);
    scoped.post<RequestShape>(RUNNER_RESOLVE_PATH, { schema: { params: Params, body: Body } }, async (request, reply) => {
      const claims = jobTokenOf(request);
      if (request.params.jobId.toLowerCase() !== claims.jobRecordId) {
        throw new ForbiddenError(`the job access token is for job ${claims.jobRecordId}, not ${request.params.jobId}`, { code: 'job_token_forbidden' });
      }
      const actions = request.body.actions.map((entry) => remoteAction(entry.action, entry.version, entry.path));
      const answer = await ticketBatch(deps, claims, actions);
      const unresolvable = Object.entries(answer.unresolvable);
      if (unresolvable.length > 0) {
        const errors = Object.fromEntries(unresolvable.map(([key, message]) => [key, { message }]));
        return reply.status(422).type('application/json').send({ errors });
      }
      const resolved: Record<string, ResolvedActionWire> = {};
      for (const [key, ticket] of Object.entries(answer.tickets)) {
        resolved[key] = {
          name: ticket.nameWithOwner,
          resolved_name: ticket.resolvedNameWithOwner,
          resolved_sha: ticket.resolvedSha,
          tar_url: ticket.tarballUrl,
          zip_url: ticket.zipballUrl,
          version: ticket.ref,
        };
      }
      return { actions: resolved };
    });
  });
}
