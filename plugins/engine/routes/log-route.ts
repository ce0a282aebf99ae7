import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../core/kernel/index.js';
import type { Engine, JobRecord, Reporting } from '../../../core/engine/index.js';
import { requireRun } from './run-routes.js';
import { LogsQuery, RunParams } from './schemas.js';

export interface LogRouteDependencies {
  readonly engine: Engine;
  readonly reporting: Reporting;
}

const FLUSH_BYTES = 64 * 1024;

/**
 * `GET /runs/{run_id}/logs?job=&step=`: the run's log lines as `text/plain`, streamed job by job.
 * `job` is a job id, a job name, or a job key (every instance of a matrix job). When the lines
 * come from more than one job, each starts with the job's name and a tab, so they stay
 * attributable when grepped.
 */
export function registerLogRoute(app: FastifyInstance, deps: LogRouteDependencies): void {
  app.get<{ Params: { run_id: number }; Querystring: { job?: string; step?: number } }>(
    '/runs/:run_id/logs',
    { schema: { params: RunParams, querystring: LogsQuery } },
    async (request, reply) => {
      const run = await requireRun(deps.engine, request.params.run_id);
      const jobs = await deps.engine.listJobs(run.id);
      const { job, step } = request.query;
      const selected = job === undefined ? jobs : selectJobs(jobs, job);
      if (selected.length === 0) {
        const names = jobs.map((j) => j.name).join(', ') || 'none';
        throw new NotFoundError(`run ${run.id} has no job '${job}' (its jobs: ${names})`, { code: 'job_not_found' });
      }
      const prefixed = selected.length > 1;
      async function* body(): AsyncGenerator<string> {
        let out = '';
        for (const j of selected) {
          for await (const line of deps.reporting.readLogs(run.id, { jobId: j.id, ...(step !== undefined ? { stepNumber: step } : {}) })) {
            out += prefixed ? `${j.name}\t${line.line}\n` : `${line.line}\n`;
            if (out.length >= FLUSH_BYTES) {
              yield out;
              out = '';
            }
          }
        }
        if (out !== '') yield out;
      }
      return reply.type('text/plain; charset=utf-8').send(Readable.from(body()));
    },
  );
}

/** A job by id, else by exact name, else every instance of a job key. */
export function selectJobs(jobs: readonly JobRecord[], wanted: string): JobRecord[] {
  if (/^\d+$/.test(wanted)) {
    const byId = jobs.filter((j) => j.id === Number(wanted));
    if (byId.length > 0) return byId;
  }
  const byName = jobs.filter((j) => j.name === wanted);
  if (byName.length > 0) return byName;
  return jobs.filter((j) => j.jobKey === wanted);
}
