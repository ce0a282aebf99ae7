/**
 * The plan's jobs as a graph of the jobs that run on runners. A calling job runs nothing itself:
 * a job that needs it waits for every job of the called workflow (all instances, all levels),
 * and the called jobs wait for what the caller needs. Unknown jobs and cycles in `needs` are the
 * parser's to report (`Job 'b' depends on unknown job 'x'.`, `... creates a cycle in the
 * dependency graph.`), so a plan's graph is acyclic; the walk still ends on a cycle.
 */
import type { PlannedJob, WorkflowPlan } from './types.js';

export interface JobNode {
  readonly job: PlannedJob;
  /** Job paths of the runnable jobs it waits for, in plan order. */
  readonly waitsFor: readonly string[];
}

/** Every planned job (callers and the jobs they call, every instance's), depth first in file order. */
export function flattenJobs(jobs: readonly PlannedJob[]): PlannedJob[] {
  const result: PlannedJob[] = [];
  const visit = (job: PlannedJob): void => {
    result.push(job);
    for (const instance of job.instances) for (const called of instance.call?.jobs ?? []) visit(called);
  };
  for (const job of jobs) visit(job);
  return result;
}

/** The jobs that run on runners (not callers), in plan order. */
export function runnableJobs(jobs: readonly PlannedJob[]): PlannedJob[] {
  return flattenJobs(jobs).filter((job) => job.kind === 'job');
}

/** Runnable jobs with what they wait for, callers replaced by the jobs they call. */
export function jobGraph(plan: Pick<WorkflowPlan, 'jobs'>): JobNode[] {
  const all = flattenJobs(plan.jobs);
  const byPath = new Map(all.map((job) => [job.path, job]));
  const resolved = new Map<string, readonly string[]>();

  // A path → the runnable job paths it stands for.
  const resolve = (path: string, seen: Set<string>): readonly string[] => {
    const job = byPath.get(path);
    if (job === undefined || job.kind === 'job') return [path];
    const cached = resolved.get(path);
    if (cached !== undefined) return cached;
    if (seen.has(path)) return [];
    seen.add(path);
    const called = job.instances.flatMap((instance) => instance.call?.jobs ?? []);
    // A caller with nothing to run (not loaded) passes on what it waits for, keeping the order.
    const targets = called.length > 0 ? called.map((c) => c.path) : job.waitsFor;
    const result = unique(targets.flatMap((target) => resolve(target, seen)));
    resolved.set(path, result);
    return result;
  };

  return all
    .filter((job) => job.kind === 'job')
    .map((job) => ({ job, waitsFor: unique(job.waitsFor.flatMap((path) => resolve(path, new Set()))) }));
}

/**
 * Topological levels for display: stage 1 holds the jobs that wait for nothing, stage n the jobs
 * whose longest chain of dependencies has n - 1 jobs. File order within a stage.
 */
export function stages(plan: Pick<WorkflowPlan, 'jobs'>): readonly (readonly PlannedJob[])[] {
  const nodes = jobGraph(plan);
  const byPath = new Map(nodes.map((node) => [node.job.path, node]));
  const levels = new Map<string, number>();
  const level = (node: JobNode, visiting: Set<string>): number => {
    const known = levels.get(node.job.path);
    if (known !== undefined) return known;
    if (visiting.has(node.job.path)) return 0;
    visiting.add(node.job.path);
    let result = 0;
    for (const path of node.waitsFor) {
      const dependency = byPath.get(path);
      if (dependency !== undefined) result = Math.max(result, level(dependency, visiting) + 1);
    }
    visiting.delete(node.job.path);
    levels.set(node.job.path, result);
    return result;
  };
  const result: PlannedJob[][] = [];
  for (const node of nodes) {
    const index = level(node, new Set());
    while (result.length <= index) result.push([]);
    result[index]?.push(node.job);
  }
  return result.filter((stage) => stage.length > 0);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
