import { TERMINAL_STATUSES, type FeedEvent, type RunWire, type StepWire } from './wire-types.js';

/** What `svc run` knows of a run: the feed's events folded over the run view's names and steps. */
export interface JobState {
  readonly id: number;
  name: string;
  status: string;
  conclusion: string | null;
  reason: string | undefined;
  /** Epoch ms; from the run view, else when the feed said the job started. */
  startedAt: number | undefined;
  completedAt: number | undefined;
  steps: readonly StepWire[];
  /** The job's last log lines (at most LOG_TAIL), timestamps removed. */
  log: string[];
}

export interface RunState {
  readonly runId: number;
  workflow: string;
  status: string;
  conclusion: string | null;
  reason: string | undefined;
  startedAt: number | undefined;
  completedAt: number | undefined;
  /** By job id, in the order the jobs became known (the run view lists them in creation order). */
  readonly jobs: Map<number, JobState>;
  /** Set once Ctrl-C asked the server to cancel. */
  cancelling: boolean;
}

/** What changed, for the line-by-line output. */
export type RunChange =
  | { readonly kind: 'run'; readonly status: string; readonly reason: string | undefined }
  | { readonly kind: 'job'; readonly job: JobState; readonly status: string; readonly reason: string | undefined }
  | { readonly kind: 'log'; readonly job: JobState; readonly text: string }
  | { readonly kind: 'annotation'; readonly job: JobState; readonly level: string; readonly message: string; readonly where: string | undefined };

export const LOG_TAIL = 5;

export function newRunState(runId: number, workflow: string): RunState {
  return { runId, workflow, status: UNKNOWN, conclusion: null, reason: undefined, startedAt: undefined, completedAt: undefined, jobs: new Map(), cancelling: false };
}

/** Whether the state is missing a job this event names (then the run view is read first, for its name). */
export function namesUnknownJob(state: RunState, event: FeedEvent): boolean {
  return 'job_id' in event && !state.jobs.has(event.job_id);
}

export function isFinished(state: RunState): boolean {
  return TERMINAL_STATUSES.has(state.status);
}

/**
 * Folds one feed event into the state. Statuses only move forward (pending, queued,
 * in_progress, then a terminal one): the feed's snapshot puts current statuses before the
 * history that led to them, and a reconnect repeats both, so an older status is not news.
 */
export function applyEvent(state: RunState, event: FeedEvent, now: number): RunChange[] {
  switch (event.type) {
    case 'run_status': {
      if (!advances(state.status, event.status)) return [];
      state.status = event.status;
      state.reason = event.reason;
      if (event.status === 'in_progress') state.startedAt ??= now;
      if (TERMINAL_STATUSES.has(event.status)) state.completedAt ??= now;
      return [{ kind: 'run', status: event.status, reason: event.reason }];
    }
    case 'job_status':
    case 'job_completed': {
      const job = jobOf(state, event.job_id);
      if (!advances(job.status, event.status)) return [];
      const reason = event.type === 'job_status' ? event.reason : undefined;
      job.status = event.status;
      job.reason = reason;
      if (event.status === 'in_progress') job.startedAt ??= now;
      if (TERMINAL_STATUSES.has(event.status)) {
        job.completedAt ??= now;
        job.conclusion ??= event.status;
      }
      return [{ kind: 'job', job, status: event.status, reason }];
    }
    case 'log': {
      const job = jobOf(state, event.job_id);
      const text = logText(event.line);
      job.log.push(text);
      if (job.log.length > LOG_TAIL) job.log.splice(0, job.log.length - LOG_TAIL);
      return [{ kind: 'log', job, text }];
    }
    case 'annotation': {
      const where = event.file === undefined ? undefined : `${event.file}${event.line === undefined ? '' : `:${event.line}`}`;
      return [{ kind: 'annotation', job: jobOf(state, event.job_id), level: event.level, message: event.message, where }];
    }
    default:
      return [];
  }
}

/**
 * Takes names, steps, times and conclusions from the run view. Statuses come from the feed
 * alone, so each change is told once, in the feed's order.
 */
export function applyRunView(state: RunState, view: RunWire): void {
  state.workflow = view.workflow.name;
  state.conclusion = view.conclusion ?? state.conclusion;
  state.startedAt = time(view.started_at) ?? state.startedAt;
  state.completedAt = time(view.completed_at) ?? state.completedAt;
  for (const wire of view.jobs) {
    const job = jobOf(state, wire.id);
    job.name = wire.name;
    job.conclusion = wire.conclusion ?? job.conclusion;
    job.startedAt = time(wire.started_at) ?? job.startedAt;
    job.completedAt = time(wire.completed_at) ?? job.completedAt;
    job.steps = wire.steps;
  }
}

/** A job the run view or a log line named before the feed told its status. */
export const UNKNOWN = 'unknown';
const RANK: Readonly<Record<string, number>> = { pending: 0, queued: 1, in_progress: 2 };

function advances(from: string, to: string): boolean {
  return rank(to) > rank(from);
}

function rank(status: string): number {
  return RANK[status] ?? (TERMINAL_STATUSES.has(status) ? 3 : -1);
}

function jobOf(state: RunState, id: number): JobState {
  let job = state.jobs.get(id);
  if (job === undefined) {
    job = { id, name: `job ${id}`, status: UNKNOWN, conclusion: null, reason: undefined, startedAt: undefined, completedAt: undefined, steps: [], log: [] };
    state.jobs.set(id, job);
  }
  return job;
}

/** A stored log line is `<ISO timestamp> <text>`; people read the text, without colour codes. */
export function logText(line: string): string {
  return line.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/, '').replace(/\x1b\[[0-9;]*m/g, '');
}

function time(iso: string | null): number | undefined {
  if (iso === null) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}
