/**
 * `POST …/plans/{planId}/actiondownloadinfo?jobId=<job GUID>` (§5.5, legacy flow): the Worker's
 * "Set up job" asks for the archives of the remote actions it is about to run, in batches (the
 * job's steps, then each downloaded composite's). The job token opens its own plan only, and the
 * `jobId` must be the token's job. The batch itself is batch-tickets.ts; this is its legacy wire:
 * camelCase, and an action no source holds fails the batch with `404` naming it (the runner
 * prints the message of a VSS error).
 */
import type { FastifyInstance } from 'fastify';
import { ForbiddenError, InputError, NotFoundError } from '../../../core/kernel/index.js';
import { splitRepositoryName } from '../../../core/ports/index.js';
import { jobTokenOf, guardJobRoutes } from '../auth/index.js';
import { RUNNER_RESOURCES } from '../registration/index.js';
import { installVssErrorHandler } from '../vss/index.js';
import { fastifyPath } from '../worker-api/index.js';
import type { RemoteAction } from './action-refs.js';
import { MAX_BATCH, ticketBatch, type ActionDownloadDeps } from './batch-tickets.js';

export const ACTION_DOWNLOAD_LOCATION = '27d7f831-88c1-4719-8ca1-6a061dad90eb';

const guid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } as const;
const Params = { type: 'object', required: ['planId'], properties: { planId: guid } } as const;
const Query = { type: 'object', properties: { jobId: guid } } as const;
const Body = {
  type: 'object',
  required: ['actions'],
  properties: {
    actions: {
      type: 'array',
      maxItems: MAX_BATCH,
      items: {
        type: 'object',
        required: ['nameWithOwner', 'ref'],
        properties: { nameWithOwner: { type: 'string', minLength: 3, maxLength: 200 }, ref: { type: 'string', minLength: 1, maxLength: 255 }, path: { type: ['string', 'null'] } },
      },
    },
  },
} as const;

interface RequestShape {
  Params: { planId: string };
  Querystring: { jobId?: string };
  Body: { actions: { nameWithOwner: string; ref: string; path?: string | null }[] };
}

export function actionDownloadPath(): string {
  const definition = RUNNER_RESOURCES.find((candidate) => candidate.id === ACTION_DOWNLOAD_LOCATION);
  if (definition === undefined) throw new Error(`connectionData advertises no actiondownloadinfo location (${ACTION_DOWNLOAD_LOCATION})`);
  return fastifyPath(definition.routeTemplate);
}

/** A batch entry as a remote action; `InputError` when the name is not `owner/repo`. */
export function remoteAction(nameWithOwner: string, ref: string, path: string | null | undefined): RemoteAction {
  if (splitRepositoryName(nameWithOwner) === undefined) throw new InputError(`'${nameWithOwner}' is not owner/repo`, { code: 'action_name_invalid' });
  return { nameWithOwner, ref, path: path ?? '' };
}

/** Registers the route in its own context (it installs a hook and the VSS error handler). */
export async function registerActionDownloadRoute(app: FastifyInstance, deps: ActionDownloadDeps): Promise<void> {
  await app.register(async (scoped) => {
    installVssErrorHandler(scoped);
    guardJobRoutes(scoped, deps.jobTokens);
    scoped.post<RequestShape>(actionDownloadPath(), { schema: { params: Params, querystring: Query, body: Body } }, async (request) => {
      const claims = jobTokenOf(request);
      const asked = request.query.jobId;
      if (asked !== undefined && asked.toLowerCase() !== claims.jobRecordId) {
        throw new ForbiddenError(`the job access token is for job ${claims.jobRecordId}, not ${asked}`, { code: 'job_token_forbidden' });
      }
      const actions = request.body.actions.map((entry) => remoteAction(entry.nameWithOwner, entry.ref, entry.path));
      const answer = await ticketBatch(deps, claims, actions);
      const unresolvable = Object.entries(answer.unresolvable);
      if (unresolvable.length > 0) {
        throw new NotFoundError(unresolvable.map(([, message]) => message).join('; '), { code: 'action_not_found', details: { actions: unresolvable.map(([key]) => key) } });
      }
      return { actions: answer.tickets };
    });
  });
}
