import { TERMINAL_STATUSES } from './wire-types.js';
import { annotationText, type JobState, type RunChange, type RunState } from './run-state.js';

/**
 * The line-by-line output (stdout not a terminal): each status change and log line as it
 * arrives, prefixed with the job's name. The run's own end is the summary's last line.
 */
export function changeLines(state: RunState, change: RunChange): string[] {
  switch (change.kind) {
    case 'run':
      return TERMINAL_STATUSES.has(change.status) ? [] : [`run ${state.runId}: ${change.status}${because(change.reason)}`];
    case 'job':
      return [`job ${change.job.name}: ${change.status}${because(change.reason)}`];
    case 'log':
      return [`${change.job.name} | ${change.text}`];
    case 'annotation':
      return [`${change.job.name} | ${annotationText(change)}`];
  }
}

/** The end: each job's conclusion and duration, then `run <id>: <conclusion> (<duration>)`. */
export function summaryLines(state: RunState, now: number): string[] {
  const jobs = [...state.jobs.values()];
  const width = Math.max(0, ...jobs.map((job) => job.name.length));
  const lines = jobs.map((job) => `  ${job.name.padEnd(width)}  ${outcomeOf(job).padEnd(9)}  ${duration(job.startedAt, job.completedAt, now)}`.trimEnd());
  const run = `run ${state.runId}: ${state.conclusion ?? state.status}${state.reason ? ` (${state.reason})` : ''}${elapsed(state, now)}`;
  return [...(lines.length > 0 ? ['jobs:', ...lines] : []), run];
}

export function outcomeOf(job: JobState): string {
  return job.conclusion ?? job.status;
}

/** `12s`, `3m04s`, `1h02m`; `-` when the job never started; `+` while it runs. */
export function duration(startedAt: number | undefined, completedAt: number | undefined, now: number): string {
  if (startedAt === undefined) return '-';
  const seconds = Math.max(0, Math.round(((completedAt ?? now) - startedAt) / 1000));
  const text =
    seconds < 60
      ? `${seconds}s`
      : seconds < 3600
        ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`
        : `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
  return completedAt === undefined ? `${text}+` : text;
}

function elapsed(state: RunState, now: number): string {
  const text = duration(state.startedAt, state.completedAt, now);
  return text === '-' ? '' : ` in ${text.replace(/\+$/, '')}`;
}

function because(reason: string | undefined): string {
  return reason === undefined || reason === '' ? '' : ` (${reason})`;
}
