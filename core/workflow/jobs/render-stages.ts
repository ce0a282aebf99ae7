/**
 * `svc plan` for a terminal: the workflow's header (event, run name, concurrency), then the jobs
 * stage by stage, each with its runner, what it waits for and its condition; a matrix job lists
 * its instances (the first few of a large matrix).
 */
import { stages } from './job-graph.js';
import type { JobInstance, PlannedJob, WorkflowPlan } from './types.js';

export interface RenderOptions {
  /** Instances listed per matrix job before `… and N more`; default 8. */
  readonly maxInstances?: number;
}

const NAME_COLUMN_MAX = 48;

type Line = string | { readonly indent: string; readonly name: string; readonly rest: string };

export function renderStages(plan: WorkflowPlan, options: RenderOptions = {}): string {
  const maxInstances = options.maxInstances ?? 8;
  const groups = stages(plan);
  const body: Line[] = [];
  groups.forEach((group, index) => {
    body.push(`Stage ${index + 1}`);
    for (const job of group) {
      const notes = jobNotes(job);
      const single = job.instances[0];
      if (!job.matrix && job.strategy !== undefined && single !== undefined && job.instances.length === 1) {
        body.push({ indent: '  ', name: single.name, rest: [runnerText(single), ...notes].join('   ') });
        continue;
      }
      body.push({ indent: '  ', name: job.displayName, rest: [matrixText(job), ...notes].join('   ') });
      for (const instance of job.instances.slice(0, maxInstances)) {
        body.push({ indent: '    ', name: instance.name, rest: runnerText(instance) });
      }
      const more = job.instances.length - maxInstances;
      if (more > 0) body.push(`    … and ${more} more`);
    }
  });
  const rows = body.filter((line) => typeof line !== 'string');
  const width = Math.min(NAME_COLUMN_MAX, Math.max(0, ...rows.map((row) => row.indent.length + row.name.length)));
  const lines = headerLines(plan, groups.length);
  for (const line of body) {
    lines.push(typeof line === 'string' ? line : `${(line.indent + line.name).padEnd(width)}   ${line.rest}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/** A runner selection as a user reads it: `ubuntu-latest`, `group linux-pool: x64`, `after needs`. */
export function runnerText(instance: JobInstance): string {
  const runsOn = instance.runsOn;
  if (runsOn === undefined) return instance.deferred.some((entry) => entry.field === 'runs-on') ? '(runs-on after needs)' : '-';
  const labels = runsOn.labels.join(', ');
  if (runsOn.group === undefined) return labels;
  return labels === '' ? `group ${runsOn.group}` : `group ${runsOn.group}: ${labels}`;
}

/** The header of `renderStages` alone (for `svc plan --graph`). */
export function renderHeader(plan: WorkflowPlan): string {
  return `${headerLines(plan, stages(plan).length).join('\n')}\n`;
}

function headerLines(plan: WorkflowPlan, stageCount: number): string[] {
  const lines = [`${plan.name} (${plan.path})`];
  const sha = plan.github.sha.slice(0, 12);
  lines.push(`  event        ${plan.event} ${plan.github.ref}${sha === '' ? '' : ` @ ${sha}`}`);
  if (plan.runName !== undefined) lines.push(`  run name     ${plan.runName}`);
  if (plan.concurrency !== undefined) {
    const { group, cancelInProgress, queue } = plan.concurrency;
    const how = cancelInProgress ? ' (cancels runs in progress)' : queue === 'max' ? ' (queue: max, up to 100 runs wait in order)' : '';
    lines.push(`  concurrency  ${group}${how}`);
  }
  const jobs = plan.jobCount === 1 ? '1 job' : `${plan.jobCount} jobs`;
  lines.push(`  ${jobs} in ${stageCount === 1 ? '1 stage' : `${stageCount} stages`}`, '');
  return lines;
}

function matrixText(job: PlannedJob): string {
  if (job.strategy === undefined) return 'matrix after needs';
  const parts = [`matrix, ${job.instances.length} ${job.instances.length === 1 ? 'job' : 'jobs'}`];
  if (job.strategy.maxParallel !== undefined) parts.push(`${job.strategy.maxParallel} at a time`);
  if (!job.strategy.failFast) parts.push('no fail-fast');
  return `(${parts.join(', ')})`;
}

/** What the job waits for (job paths; a calling job by its own), its condition, what is deferred. */
function jobNotes(job: PlannedJob): string[] {
  const notes: string[] = [];
  if (job.waitsFor.length > 0) notes.push(`needs: ${job.waitsFor.join(', ')}`);
  const condition = writtenCondition(job.if);
  if (condition !== '' && condition !== 'success()') notes.push(`if: ${condition}`);
  const deferred = new Set([...job.deferred, ...job.instances.flatMap((instance) => instance.deferred)].map((entry) => entry.field));
  deferred.delete('runs-on');
  if (deferred.size > 0) notes.push(`after needs: ${[...deferred].join(', ')}`);
  return notes;
}

/** The condition as written: the parser stores `if: x` as `success() && (x)`. */
function writtenCondition(condition: string): string {
  const wrapped = /^success\(\) && \(([\s\S]*)\)$/.exec(condition.trim());
  return (wrapped?.[1] ?? condition).trim();
}
