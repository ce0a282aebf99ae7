/**
 * The job a results call reports for. Results bodies name it by backend ids (§4.6):
 * `workflow_run_backend_id` = the plan id, `workflow_job_run_backend_id` = the job's GUID. They
 * must be the token's own (a token opens its job and nothing else), and the token's attempt must
 * still be the job's, held by the token's runner (a re-run's new attempt ends the old one's reports).
 */
import { TwirpError } from '../../../core/kernel/index.js';
import type { Engine, JobRecord } from '../../../core/engine/index.js';
import type { VerifiedJobToken } from '../auth/index.js';
import { engineRunnerId } from '../job-requests/index.js';
import type { JobScope } from '../worker-api/index.js';

export interface BackendIds {
  readonly workflow_run_backend_id: string;
  readonly workflow_job_run_backend_id: string;
}

export interface ResultsJob {
  readonly job: JobRecord;
  readonly scope: JobScope;
  /** The engine's runner id of the job (reports are accepted from it only). */
  readonly runnerId: string;
}

export async function resultsJob(engine: Engine, claims: VerifiedJobToken, ids: BackendIds): Promise<ResultsJob> {
  if (ids.workflow_run_backend_id.toLowerCase() !== claims.planId || ids.workflow_job_run_backend_id.toLowerCase() !== claims.jobRecordId) {
    throw new TwirpError(
      'permission_denied',
      `this job token reports for job ${claims.jobRecordId} of workflow run ${claims.planId}, not job ${ids.workflow_job_run_backend_id} of ${ids.workflow_run_backend_id}`,
    );
  }
  const job = await engine.getJob(claims.jobId);
  if (job === undefined || job.runId !== claims.runId) throw new TwirpError('not_found', `workflow run ${claims.planId} has no job ${claims.jobRecordId}`);
  if (job.attempt !== claims.attempt || job.runnerId !== engineRunnerId(claims.agentId)) {
    throw new TwirpError('failed_precondition', `attempt ${claims.attempt} of job ${claims.jobRecordId} is over (the job is at attempt ${job.attempt})`);
  }
  const scope: JobScope = {
    planId: claims.planId,
    timelineId: claims.timelineId,
    jobRecordId: claims.jobRecordId,
    jobId: job.id,
    attempt: job.attempt,
    runId: job.runId,
  };
  return { job, scope, runnerId: engineRunnerId(claims.agentId) };
}
