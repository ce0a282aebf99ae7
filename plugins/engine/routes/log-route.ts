import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { InputError, NotFoundError } from '../../../core/kernel/index.js';
import type { Engine, JobRecord, Reporting } from '../../../core/engine/index.js';
import { requireRun } from './run-routes.js';
import { LogsQuery, RunParams } from './schemas.js';

export interface LogRouteDependencies {
  readonly engine: Engine;
  readonly reporting: Reporting;
}

const FLUSH_BYTES = 64 * 1024;

/** `LogsQuery` plus `raw`: the job's raw log. */
const RawLogsQuery = {
  ...LogsQuery,
  properties: { ...LogsQuery.properties, raw: { type: 'string', enum: ['1', 'true', '0', 'false'], description: "1: one job's raw log (the runner's job-level log, every line as uploaded)" } },
} as const;

/**
 * `GET /runs/{run_id}/logs?job=&step=`: the run's log lines as `text/plain`, streamed job by job.
 * `job` is a job id, a job name, or a job key (every instance of a matrix job). When the lines
 * come from more than one job, each starts with the job's name and a tab, so they stay
 * attributable when grepped.
 *
 * `raw=1` streams one job's raw log instead: the runner's whole job-level log as it uploaded it
 * (GitHub's "download raw log"; the official runner repeats every step line there, so the lines
 * above show each once), `404` when the runner sent none.
 */
export function registerLogRoute(app: FastifyInstance, deps: LogRouteDependencies): void {
  app.get<{ Params: { run_id: number }; Querystring: { job?: string; step?: number; raw?: '1' | 'true' | '0' | 'false' } }>(
    '/runs/:run_id/logs',
    { schema: { params: RunParams, querystring: RawLogsQuery } },
    async (request, reply) => {
      const run = await requireRun(deps.engine, request.params.run_id);
      const jobs = await deps.engine.listJobs(run.id);
      const { job, step, raw } = request.query;
      const selected = job === undefined ? jobs : selectJobs(jobs, job);
      if (selected.length === 0) {
        const names = jobs.map((j) => j.name).join(', ') || 'none';
        throw new NotFoundError(`run ${run.id} has no job '${job}' (its jobs: ${names})`, { code: 'job_not_found' });
      }
      if (raw === '1' || raw === 'true') {
        const [only] = selected;
        if (only === undefined || selected.length > 1 || step !== undefined) {
          throw new InputError(`raw=1 reads one job's raw log: name one job with job= (a job id or name) and no step=`, { code: 'raw_log_needs_one_job' });
        }
        const parts = await deps.reporting.readRawLog(run.id, only.id);
        if (parts === undefined) throw new NotFoundError(`job ${only.id} (${only.name}) of run ${run.id} has no raw log: its runner uploaded no job log`, { code: 'raw_log_not_found' });
        return reply.type('text/plain; charset=utf-8').send(Readable.from(parts));
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
