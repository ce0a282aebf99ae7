import type { JobRecord } from '../model/records.js';
import type { JobResult } from '../model/statuses.js';
import { isTerminal } from '../model/statuses.js';

/**
 * What a job's dependants see of it (`needs.<job_id>`). A matrix job is one key with several
 * instances: it is done when all are, and its result is `failure` if any failed, else
 * `cancelled` if any was cancelled, else `skipped` if all were skipped, else `success`. A job
 * with `continue-on-error: true` that failed counts as a success for its dependants and for the
 * run (its own conclusion stays `failure`), as GitHub shows it. Outputs of a matrix job are
 * merged in completion order, so the last instance to set a value wins, as on GitHub.
 */
export interface NeedsEntry {
  readonly result: JobResult;
  readonly outputs: Readonly<Record<string, string>>;
}

export function groupByKey(jobs: readonly JobRecord[]): Map<string, JobRecord[]> {
  const groups = new Map<string, JobRecord[]>();
  for (const job of jobs) {
    const list = groups.get(job.jobKey);
    if (list) list.push(job);
    else groups.set(job.jobKey, [job]);
  }
  return groups;
}

export function instancesDone(instances: readonly JobRecord[]): boolean {
  return instances.every((job) => isTerminal(job.status));
}

export function effectiveResult(job: JobRecord): JobResult {
  if (job.status === 'failure') return job.continueOnError ? 'success' : 'failure';
  if (job.status === 'success' || job.status === 'cancelled' || job.status === 'skipped') return job.status;
  throw new Error(`job ${job.id} is not finished (${job.status})`);
}

export function aggregateResult(instances: readonly JobRecord[]): JobResult {
  const results = instances.map(effectiveResult);
  if (results.includes('failure')) return 'failure';
  if (results.includes('cancelled')) return 'cancelled';
  if (results.length > 0 && results.every((r) => r === 'skipped')) return 'skipped';
  return 'success';
}

export function needsEntry(instances: readonly JobRecord[]): NeedsEntry {
  const outputs: Record<string, string> = {};
  const byCompletion = [...instances].sort((a, b) => (a.completedAt ?? 0) - (b.completedAt ?? 0) || a.id - b.id);
  for (const job of byCompletion) Object.assign(outputs, job.outputs);
  return { result: aggregateResult(instances), outputs };
}

/** Every job key a key depends on, directly or through others. */
export function ancestors(key: string, needsOf: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(needsOf.get(key) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined || seen.has(next)) continue;
    seen.add(next);
    stack.push(...(needsOf.get(next) ?? []));
  }
  return seen;
}
