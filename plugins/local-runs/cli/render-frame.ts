import { TERMINAL_STATUSES, type StepWire } from './wire-types.js';
import { duration, outcomeOf } from './render-lines.js';
import type { JobState, RunState } from './run-state.js';

const SYMBOLS: Readonly<Record<string, string>> = {
  success: '✓',
  failure: '✗',
  cancelled: '⊘',
  skipped: '-',
  in_progress: '●',
};
const WAITING = '○';

export interface FrameSize {
  readonly columns: number;
  readonly rows: number;
}

/**
 * The live view on a terminal, redrawn in place: a run line, then each job with its status
 * symbol and duration; a running or failed job also shows its steps and its last log lines.
 * Lines are cut to the terminal's width, and the frame to its height (so redrawing in place
 * always reaches the frame's first line).
 */
export function renderFrame(state: RunState, now: number, size: FrameSize): string[] {
  const status = state.cancelling && !TERMINAL_STATUSES.has(state.status) ? `${state.status}, cancelling (Ctrl-C again to stop waiting)` : (state.conclusion ?? state.status);
  const lines = [`run ${state.runId} · ${state.workflow} · ${status} · ${duration(state.startedAt, state.completedAt, now)}`];
  for (const job of state.jobs.values()) {
    const shown = outcomeOf(job);
    const waiting = !TERMINAL_STATUSES.has(job.status) && job.status !== 'in_progress';
    lines.push(`${symbol(shown)} ${job.name}  ${waiting ? `${job.status}${job.reason ? `: ${job.reason}` : ''}` : duration(job.startedAt, job.completedAt, now)}`);
    if (job.status !== 'in_progress' && shown !== 'failure') continue;
    for (const step of job.steps) lines.push(`    ${stepLine(step, now)}`);
    for (const text of logTail(job)) lines.push(`      │ ${text}`);
  }
  const fitted = lines.length <= size.rows - 1 ? lines : [...lines.slice(0, Math.max(1, size.rows - 2)), `… ${lines.length - Math.max(1, size.rows - 2)} more lines`];
  return fitted.map((line) => cut(line, size.columns));
}

function stepLine(step: StepWire, now: number): string {
  const started = step.started_at === null ? undefined : Date.parse(step.started_at);
  const completed = step.completed_at === null ? undefined : Date.parse(step.completed_at);
  const time = step.status === 'pending' || step.status === 'queued' ? '' : `  ${duration(started, completed, now)}`;
  return `${symbol(step.conclusion ?? step.status)} ${step.name}${time}`;
}

function logTail(job: JobState): readonly string[] {
  return job.log.filter((text) => text.trim() !== '');
}

function symbol(status: string): string {
  return SYMBOLS[status] ?? WAITING;
}

/** Cut to `columns` characters (code points; wide characters are rare in job logs). */
function cut(line: string, columns: number): string {
  const chars = [...line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')];
  if (columns <= 1 || chars.length <= columns) return chars.join('');
  return `${chars.slice(0, columns - 1).join('')}…`;
}
