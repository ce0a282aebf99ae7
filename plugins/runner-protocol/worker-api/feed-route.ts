/**
 * The live console feed over HTTP (§4.4): `POST …/timelines/{timelineId}/records/{jobRecordId}/feed`
 * with `{count, value: [lines], stepId, startLine}`; the runner posts here when the job message
 * has no `FeedStreamUrl` (ours has none).
 *
 * Decision: feed lines are acknowledged and not stored. The step's log page (log-routes.ts)
 * carries every one of these lines and is what the engine keeps, so each line is stored once.
 * The feed could not stand in for it: the runner skips empty lines, cuts lines at 1024
 * characters, drops batches when its queue is full and at job end keeps only the last two
 * batches per step, and sends the lines without the log's timestamps, so neither copy can be
 * trimmed by the other line for line. The cost: a step's lines reach `/logs` and the run's feed
 * when a page of its log is uploaded: svc-runner uploads one once its lines are a second old
 * (ten seconds after a log's first 30 pages), the official runner at step end or every 8 MiB.
 */
import type { FastifyInstance } from 'fastify';
import { workerJob } from './job-access.js';
import { JOB_REPORT_BODY_LIMIT, workerPath } from './route-paths.js';
import { FeedBody, RecordParams, type FeedBodyType, type RecordParamsType } from './schemas.js';
import { planSecurity } from './worker-errors.js';
import type { WorkerRouteDeps } from './worker-deps.js';

export function registerFeedRoute(app: FastifyInstance, deps: WorkerRouteDeps): void {
  app.post<{ Params: RecordParamsType; Body: FeedBodyType }>(
    workerPath('feed'),
    { schema: { params: RecordParams, body: FeedBody }, bodyLimit: JOB_REPORT_BODY_LIMIT },
    async (request, reply) => {
      const worker = await workerJob(deps.engine, request);
      // The URL names the job's record; the step is `stepId` in the body.
      if (request.params.recordId.toLowerCase() !== worker.scope.jobRecordId) {
        throw planSecurity(`record ${request.params.recordId} is not the record of job ${worker.scope.jobRecordId}`);
      }
      request.log.debug({ jobId: worker.job.id, stepId: request.body.stepId, lines: request.body.value.length }, 'live console lines (not stored: the uploaded log is)');
      return reply.status(204).send();
    },
  );
}
