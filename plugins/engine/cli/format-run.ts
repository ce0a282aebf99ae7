import type { JobView, RunView } from '../run-view.js';
import { environmentWait } from './waiting-job.js';

/**
 * The human view of `svc status`: a run line, a line of where it came from, and a table of its
 * jobs (status, conclusion, runner, duration, and why a job waits or failed; a job its environment
 * holds says so, and how to approve it), then who approved the jobs that were approved.
 */
export function formatRun(run: RunView, now: number): string {
  const outcome = run.conclusion && run.conclusion !== run.status ? `${run.status} (${run.conclusion})` : run.status;
  const lines = [
    `Run ${run.id}: ${run.workflow.name} #${run.run_number}${run.run_attempt > 1 ? ` attempt ${run.run_attempt}` : ''}: ${outcome}${run.cancel_requested && !run.completed_at ? ', cancelling' : ''}`,
    `  ${run.repository} ${run.event} ${run.ref} ${run.sha.slice(0, 7)} by ${run.actor}; ${run.workflow.path}${run.reason ? `; ${run.reason}` : ''}`,
    '',
  ];
  const header = ['JOB', 'ID', 'STATUS', 'CONCLUSION', 'RUNNER', 'DURATION', 'REASON'];
  const rows = run.jobs.map((job) => [job.name, String(job.id), job.status, job.conclusion ?? '-', job.runner_name ?? '-', duration(job, now), environmentWait(job) ?? job.reason ?? '']);
  lines.push(...table([header, ...rows]));
  if (run.jobs.length === 0) lines.push('(no jobs)');
  for (const job of run.jobs) {
    const approval = job.environment?.admin_override;
    if (approval) lines.push(`${job.name}: approved for environment ${job.environment?.name ?? ''} as admin_override by ${approval.by} at ${approval.at}`);
  }
  return `${lines.join('\n')}\n`;
}

function duration(job: JobView, now: number): string {
  if (job.started_at === null) return '-';
  const end = job.completed_at === null ? now : Date.parse(job.completed_at);
  const seconds = Math.max(0, Math.round((end - Date.parse(job.started_at)) / 1000));
  const text = seconds < 60 ? `${seconds}s` : seconds < 3600 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
  return job.completed_at === null ? `${text}+` : text;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd());
}
