import type { JobRecord, RunRecord } from '../model/records.js';
import type { JobResult } from '../model/statuses.js';
import { ancestors, groupByKey, instancesDone, needsEntry, type NeedsEntry } from './needs.js';

/** What the scheduler does to a pending job once its needs are done. */
export type Decision =
  | { readonly kind: 'ready'; readonly job: JobRecord; readonly needs: Readonly<Record<string, NeedsEntry>> }
  | { readonly kind: 'skip'; readonly job: JobRecord }
  | { readonly kind: 'fail'; readonly job: JobRecord; readonly reason: string };

export interface IfEvaluation {
  readonly job: JobRecord;
  readonly run: RunRecord;
  /** Direct needs, as the `needs` context shows them. */
  readonly needs: Readonly<Record<string, NeedsEntry>>;
  /** Results of every ancestor, for the job-level status functions. */
  readonly ancestorResults: Readonly<Record<string, JobResult>>;
  readonly cancelled: boolean;
}

/**
 * Decides, for each job waiting on its needs, whether it can go (its `if:` holds), is skipped
 * (it does not), or fails (its `if:` cannot be evaluated). Pure: the caller applies the
 * decisions with conditional updates.
 */
export function decideWaitingJobs(run: RunRecord, jobs: readonly JobRecord[], cancelled: boolean, evaluateIf: (input: IfEvaluation) => boolean): Decision[] {
  const byKey = groupByKey(jobs);
  const needsOf = new Map<string, readonly string[]>();
  for (const job of jobs) needsOf.set(job.jobKey, job.needs);
  const decisions: Decision[] = [];
  for (const job of jobs) {
    if (job.status !== 'pending' || job.reason !== 'needs') continue;
    const direct = job.needs.map((key) => [key, byKey.get(key) ?? []] as const);
    if (!direct.every(([, instances]) => instancesDone(instances))) continue;
    const all = [...ancestors(job.jobKey, needsOf)];
    if (!all.every((key) => instancesDone(byKey.get(key) ?? []))) continue;
    const needs = Object.fromEntries(direct.map(([key, instances]) => [key, needsEntry(instances)]));
    const ancestorResults = Object.fromEntries(all.map((key) => [key, needsEntry(byKey.get(key) ?? []).result]));
    try {
      const go = evaluateIf({ job, run, needs, ancestorResults, cancelled });
      decisions.push(go ? { kind: 'ready', job, needs } : { kind: 'skip', job });
    } catch (error) {
      decisions.push({ kind: 'fail', job, reason: (error as Error).message });
    }
  }
  return decisions;
}

/** `max-parallel`: how many more instances of this job key may be queued or running now. */
export function parallelRoom(job: JobRecord, jobs: readonly JobRecord[]): number {
  const max = maxParallel(job);
  if (max === undefined) return Number.POSITIVE_INFINITY;
  const busy = jobs.filter((other) => other.jobKey === job.jobKey && (other.status === 'queued' || other.status === 'in_progress')).length;
  return Math.max(0, max - busy);
}

export function maxParallel(job: JobRecord): number | undefined {
  const strategy = job.strategy;
  if (strategy === null || typeof strategy !== 'object' || Array.isArray(strategy)) return undefined;
  const value = (strategy as Record<string, unknown>)['max-parallel'];
  return typeof value === 'number' && value > 0 ? value : undefined;
}

export function failFast(job: JobRecord): boolean {
  const strategy = job.strategy;
  if (strategy === null || typeof strategy !== 'object' || Array.isArray(strategy)) return false;
  const value = (strategy as Record<string, unknown>)['fail-fast'];
  return value !== false;
}
