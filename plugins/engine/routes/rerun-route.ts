import type { FastifyInstance } from 'fastify';
import type { Engine, RerunScope, Reporting } from '../../../core/engine/index.js';
import { toRunView } from '../run-view.js';
import { requireRun } from './run-routes.js';
import { RunParams, RunViewSchema } from './schemas.js';

const RerunBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    failed: { type: 'boolean', description: 'only the failed and cancelled jobs, with their dependants' },
    job_id: { type: 'integer', minimum: 1, description: 'only this job, with its dependants' },
  },
} as const;

interface RerunBodyType {
  failed?: boolean;
  job_id?: number;
}

/**
 * `POST /runs/{run_id}/rerun` `{failed?, job_id?}`: runs a finished run again in place (next
 * attempt, same id) and answers 202 with the run. The re-run replays the tree the run was
 * created from (its commit or snapshot), not later changes. 409 `run_not_finished` while it
 * runs, `nothing_to_rerun` when `failed` finds no failed job.
 */
export function registerRerunRoute(app: FastifyInstance, deps: { readonly engine: Engine; readonly reporting: Reporting }): void {
  app.post<{ Params: { run_id: number }; Body: RerunBodyType | undefined }>(
    '/runs/:run_id/rerun',
    {
      schema: { params: RunParams, body: RerunBody, response: { 202: RunViewSchema } },
      // A bodyless POST means "re-run everything".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const run = await requireRun(deps.engine, request.params.run_id);
      const body = request.body ?? {};
      const scope: RerunScope = body.job_id !== undefined ? { kind: 'job', jobId: body.job_id } : body.failed ? { kind: 'failed' } : { kind: 'all' };
      const rerun = (await deps.engine.rerun(run.id, scope)) ?? run;
      const [jobs, steps] = await Promise.all([deps.engine.listJobs(run.id), deps.reporting.listSteps(run.id)]);
      return reply.status(202).send(toRunView(rerun, jobs, steps));
    },
  );
}
