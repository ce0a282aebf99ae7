import { isTerminal, type Engine, type JobRecord } from '../../../core/engine/index.js';
import { AuthError } from '../../../core/kernel/index.js';

/**
 * The one answer to "is the job attempt this token names still live?", read from the store (the
 * engine's job row) on every request a job token makes. A job's token (also `GITHUB_TOKEN` and
 * `ACTIONS_RUNTIME_TOKEN`) writes to its job only while that attempt runs on the runner that
 * acquired it: once the attempt is terminal (completed, cancelled, failed, timed out), re-run, or
 * handed back to the queue, every route refuses it, whatever its `exp` says. The runner's own last
 * reports (logs, timeline, step summaries) are sent before `JobCompleted`/`completejob`, and the
 * job becomes terminal when that completion is processed, so they still land.
 */

/** Why an attempt is over: its job is gone, a re-run replaced the attempt, or it finished (or left its runner). */
export type JobAttemptEnd = 'gone' | 'superseded' | 'finished';

/** A job token whose job attempt is over: 401 `job_token_expired` (each wire gives it its own envelope). */
export class JobAttemptEndedError extends AuthError {
  readonly ended: JobAttemptEnd;
  /** The job as the store has it (undefined when it is gone). */
  readonly job: JobRecord | undefined;
  /** What the refused credential named. */
  readonly claims: JobAttemptClaims;

  constructor(ended: JobAttemptEnd, message: string, claims: JobAttemptClaims, job?: JobRecord) {
    super(message, { code: 'job_token_expired' });
    this.ended = ended;
    this.claims = claims;
    this.job = job;
  }
}

/** What a job token names, as far as liveness goes. */
export interface JobAttemptClaims {
  readonly runId: number;
  readonly jobId: number;
  /** The runner the attempt was handed to; absent for credentials that do not name one (signed upload URLs). */
  readonly agentId?: number;
  readonly attempt: number;
}

export interface JobAttempts {
  /** The job, when the attempt is live; throws `JobAttemptEndedError` otherwise. */
  requireLive(claims: JobAttemptClaims): Promise<JobRecord>;
}

/** The engine's runner id for a registered runner: its agent id, as text (the job's lease owner). */
export function engineRunnerId(agentId: number): string {
  return String(agentId);
}

/** The verdict on a job row for a token's claims (pure: the row is read by the caller). */
export function jobAttemptEnd(job: JobRecord | undefined, claims: JobAttemptClaims): JobAttemptEndedError | undefined {
  if (job === undefined || job.runId !== claims.runId) return new JobAttemptEndedError('gone', `the job this token belongs to (job ${claims.jobId} of run ${claims.runId}) does not exist`, claims);
  if (job.attempt !== claims.attempt) {
    return new JobAttemptEndedError('superseded', `the job attempt this token belongs to is over: job ${job.id} was re-run (attempt ${claims.attempt}, now ${job.attempt})`, claims, job);
  }
  if (isTerminal(job.status)) return new JobAttemptEndedError('finished', `the job this token belongs to has finished (${job.status}); its token no longer opens anything`, claims, job);
  if (job.status !== 'in_progress' || (claims.agentId !== undefined && job.runnerId !== engineRunnerId(claims.agentId))) {
    return new JobAttemptEndedError('finished', `the job this token belongs to is no longer held by the runner it was handed to (${job.status})`, claims, job);
  }
  return undefined;
}

/**
 * Whether the attempt ended as this token's own run of it: terminal, at the token's attempt, on
 * the token's runner. Only then may a completion route answer a repeat of the completion (the
 * runner retries when the first answer was lost) without writing anything.
 */
export function endedOnItsRunner(error: JobAttemptEndedError): boolean {
  const { job, claims } = error;
  if (error.ended !== 'finished' || job === undefined || claims.agentId === undefined) return false;
  return isTerminal(job.status) && job.attempt === claims.attempt && job.runnerId === engineRunnerId(claims.agentId);
}

export function createJobAttempts(engine: Pick<Engine, 'getJob'>): JobAttempts {
  return {
    async requireLive(claims) {
      const job = await engine.getJob(claims.jobId);
      const ended = jobAttemptEnd(job, claims);
      if (ended !== undefined) throw ended;
      return job as JobRecord;
    },
  };
}
