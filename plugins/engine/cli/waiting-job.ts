import type { JobView } from '../run-view.js';

/** The job reason while an environment's reviewer rule holds it (core/engine environments). */
export const APPROVAL_REASON = 'environment_approval';
export const WAIT_TIMER_REASON = 'environment_wait_timer';

export function waitsForApproval(job: JobView): boolean {
  return job.status === 'pending' && job.reason === APPROVAL_REASON;
}

/**
 * The job `svc approve --job` names, as `svc logs --job` reads it: an id, else an exact name, else
 * a job key (several matrix instances: the one waiting for approval, if only one does).
 * Throws a message naming the jobs to choose from.
 */
export function jobToApprove(runId: number, jobs: readonly JobView[], wanted: string): JobView {
  const byId = /^\d+$/.test(wanted) ? jobs.filter((j) => j.id === Number(wanted)) : [];
  const byName = jobs.filter((j) => j.name === wanted);
  const matches = byId.length > 0 ? byId : byName.length > 0 ? byName : jobs.filter((j) => j.job_key === wanted);
  const waiting = jobs.filter(waitsForApproval);
  const choices = waiting.length === 0 ? 'no job of it waits for an approval' : `waiting for approval: ${waiting.map(describe).join(', ')}`;
  if (matches.length === 0) throw new Error(`run ${runId} has no job '${wanted}' (${choices})`);
  if (matches.length === 1) return matches[0]!;
  const candidates = matches.filter(waitsForApproval);
  if (candidates.length === 1) return candidates[0]!;
  throw new Error(`'${wanted}' names ${matches.length} jobs of run ${runId}; name one by its id (${(candidates.length > 0 ? candidates : matches).map(describe).join(', ')})`);
}

/** Why a job waits on its environment, for people: the run view's `reason` key in words. */
export function environmentWait(job: JobView): string | undefined {
  const name = job.environment?.name ?? 'its environment';
  if (job.status !== 'pending') return undefined;
  if (job.reason === APPROVAL_REASON) return `waiting for approval (environment ${name}): svc approve ${job.run_id} --job ${job.id}`;
  if (job.reason === WAIT_TIMER_REASON) return `waiting for the wait timer of environment ${name}${job.environment?.wait_until ? ` until ${job.environment.wait_until}` : ''}`;
  return undefined;
}

function describe(job: JobView): string {
  return `${job.name} (id ${job.id})`;
}
