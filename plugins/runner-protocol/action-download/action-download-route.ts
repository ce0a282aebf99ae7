/**
 * `POST …/plans/{planId}/actiondownloadinfo?jobId=<job GUID>` (§5.5, legacy flow): the Worker's
 * "Set up job" asks for the archives of the remote actions it is about to run, in batches (the
 * job's steps, then each downloaded composite's). The job token opens its own plan only, and the
 * `jobId` must be the token's job. Every action of the batch must be admitted (admission.ts) —
 * one that is not fails the whole batch with `403` naming it — and each admitted one gets a ticket
 * (action-tickets.ts), keyed `owner/repo@ref` as requested.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../../core/engine/index.js';
import { ForbiddenError, InputError, NotFoundError } from '../../../core/kernel/index.js';
import type { SnapshotStore } from '../../../core/ports/index.js';
import { jobTokenOf, requireJobToken, type JobTokens } from '../auth/index.js';
import { planAssignment } from '../messages/index.js';
import { RUNNER_RESOURCES } from '../registration/index.js';
import { installVssErrorHandler } from '../vss/index.js';
import { fastifyPath } from '../worker-api/index.js';
import { actionKey, admissionKey, splitName, type RemoteAction } from './action-refs.js';
import type { ActionTicket, ActionTickets } from './action-tickets.js';
import { admittedRemotes } from './admission.js';

export const ACTION_DOWNLOAD_LOCATION = '27d7f831-88c1-4719-8ca1-6a061dad90eb';
/** Largest batch taken (the runner sends the distinct actions of one job or one composite). */
export const MAX_BATCH = 200;

export interface ActionDownloadDeps {
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  readonly jobTokens: JobTokens;
  readonly tickets: ActionTickets;
  /** `github.server_url`, as the run was planned with. */
  readonly serverUrl: () => string;
}

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

/** Registers the route in its own context (it installs a hook and the VSS error handler). */
export async function registerActionDownloadRoute(app: FastifyInstance, deps: ActionDownloadDeps): Promise<void> {
  await app.register(async (scoped) => {
    installVssErrorHandler(scoped);
    scoped.addHook('onRequest', requireJobToken(deps.jobTokens));
    scoped.post<RequestShape>(actionDownloadPath(), { schema: { params: Params, querystring: Query, body: Body } }, async (request) => {
      const claims = jobTokenOf(request);
      const asked = request.query.jobId;
      if (asked !== undefined && asked.toLowerCase() !== claims.jobRecordId) {
        throw new ForbiddenError(`the job access token is for job ${claims.jobRecordId}, not ${asked}`, { code: 'job_token_forbidden' });
      }
      const actions = request.body.actions.map((entry): RemoteAction => {
        if (splitName(entry.nameWithOwner) === undefined) throw new InputError(`'${entry.nameWithOwner}' is not owner/repo`, { code: 'action_name_invalid' });
        return { nameWithOwner: entry.nameWithOwner, ref: entry.ref, path: entry.path ?? '' };
      });
      const admitted = await admittedFor(deps, claims);
      const denied = actions.filter((action) => !admitted.has(admissionKey(action)));
      if (denied.length > 0) {
        throw new ForbiddenError(`the workflow does not declare ${denied.map(actionKey).join(', ')}: no download tickets for this batch`, { code: 'action_not_declared' });
      }
      const answer: Record<string, ActionTicket> = {};
      for (const action of actions) answer[actionKey(action)] ??= await deps.tickets.issue(action);
      return { actions: answer };
    });
  });
}

/** Plans the token's job again and collects what its steps (and readable composites) admit. */
async function admittedFor(deps: ActionDownloadDeps, claims: ReturnType<typeof jobTokenOf>): Promise<ReadonlySet<string>> {
  const [run, job] = await Promise.all([deps.engine.getRun(claims.runId), deps.engine.getJob(claims.jobId)]);
  if (run === undefined || job === undefined || job.runId !== run.id) throw new NotFoundError(`plan ${claims.planId} has no job ${claims.jobRecordId}`, { code: 'plan_not_found' });
  if (job.attempt !== claims.attempt || job.runnerId === null) {
    throw new ForbiddenError(`attempt ${claims.attempt} of job ${claims.jobRecordId} is over`, { code: 'plan_terminated' });
  }
  const [files, runJobs] = await Promise.all([deps.engine.runFiles(run.id), deps.engine.listJobs(run.id)]);
  // Needs included: a job expanded from its needs (matrix from an output) only plans with them.
  const { plan } = await planAssignment({ run, job, files, leaseExpiresAt: 0 }, runJobs, deps.serverUrl());
  const uses = plan.instance.steps.flatMap((step) => {
    const value = (step as { readonly uses?: { readonly value?: unknown } }).uses?.value;
    return typeof value === 'string' ? [value] : [];
  });
  const snapshot = await deps.snapshots.hasCommit(run.repository, run.sha).catch(() => false);
  return admittedRemotes(uses, {
    ...(snapshot ? { local: (path: string) => deps.snapshots.readFile(run.repository, run.sha, path) } : {}),
    remote: (action, path) => deps.tickets.readFile(action, path),
  });
}
