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
  /** The reasons a pending job was told to wait for (each is told once). */
  readonly pendingReasons: Set<string>;
  /** The job's last log lines (at most LOG_TAIL), timestamps removed. */
  log: string[];
  /** Annotations the feed told before the log line that emitted them (shown with that line). */
  readonly annotationsAhead: Annotation[];
  /** `##[error]`-style lines shown before their annotation arrived (it is not shown again). */
  readonly linesAhead: Annotation[];
  /**
   * Output held back since an `##[error]`-style line came before its annotation: that line and
   * the job's lines after it, released in order when the annotation comes (with its location),
   * when the job ends, or HOLD_MS after the line came.
   */
  held: Held | undefined;
}

interface Held {
  /** When the first line still waiting for its annotation came (epoch ms). */
  since: number;
  readonly items: HeldItem[];
}

type HeldItem = { readonly text: string } | { readonly marker: Annotation; located: boolean; where: string | undefined };

/** How long a line waits for its annotation before it is shown without a location. */
export const HOLD_MS = 1500;

/** An annotation as `svc run` prints it: `<level>: [<file>[:<line>]: ]<message>`. */
export interface Annotation {
  readonly level: string;
  readonly message: string;
  readonly where: string | undefined;
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
  | ({ readonly kind: 'annotation'; readonly job: JobState } & Annotation);

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
      const ended = TERMINAL_STATUSES.has(event.status);
      if (ended) state.completedAt ??= now;
      const left = ended ? [...state.jobs.values()].flatMap((job) => [...release(job, now, true), ...annotationsLeft(job)]) : [];
      return [...left, { kind: 'run', status: event.status, reason: event.reason }];
    }
    case 'job_status':
    case 'job_completed': {
      const job = jobOf(state, event.job_id);
      const reason = event.type === 'job_status' ? event.reason : undefined;
      // A pending job's new reason is news (an environment's wait timer, then its approval).
      // Each once: a reconnect's snapshot and history repeat them.
      if (event.status === 'pending' && job.status === 'pending' && reason !== undefined && reason !== job.reason) {
        job.reason = reason;
        if (job.pendingReasons.has(reason)) return [];
        job.pendingReasons.add(reason);
        return [{ kind: 'job', job, status: event.status, reason }];
      }
      if (!advances(job.status, event.status)) return [];
      job.status = event.status;
      job.reason = reason;
      if (event.status === 'pending' && reason !== undefined) job.pendingReasons.add(reason);
      if (event.status === 'in_progress') job.startedAt ??= now;
      let left: RunChange[] = [];
      if (TERMINAL_STATUSES.has(event.status)) {
        job.completedAt ??= now;
        job.conclusion ??= event.status;
        left = [...release(job, now, true), ...annotationsLeft(job)];
      }
      return [...left, { kind: 'job', job, status: event.status, reason }];
    }
    case 'log': {
      const job = jobOf(state, event.job_id);
      const text = logText(event.line);
      const marked = ANNOTATION_LINE.exec(text);
      if (marked === null) {
        if (job.held !== undefined) {
          job.held.items.push({ text });
          return [];
        }
        remember(job, text);
        return [{ kind: 'log', job, text }];
      }
      const [, level = '', message = ''] = marked;
      const ahead = takeMatching(job.annotationsAhead, level, message);
      const marker = { level, message, where: undefined };
      if (ahead !== undefined || job.held !== undefined) {
        if (job.held === undefined) return [shown(job, { ...marker, where: ahead?.where })];
        job.held.items.push({ marker, located: ahead !== undefined, where: ahead?.where });
        return release(job, now, false);
      }
      // Its annotation may be on its way (the timeline and the log travel apart): wait for it.
      job.held = { since: now, items: [{ marker, located: false, where: undefined }] };
      return [];
    }
    case 'annotation': {
      const job = jobOf(state, event.job_id);
      const where = event.file === undefined ? undefined : `${event.file}${event.line === undefined ? '' : `:${event.line}`}`;
      const annotation = { level: event.level, message: event.message, where };
      const waiting = job.held?.items.find((item) => 'marker' in item && !item.located && sameAnnotation(item.marker, annotation.level, annotation.message));
      if (waiting !== undefined && 'marker' in waiting) {
        waiting.located = true;
        waiting.where = where;
        return release(job, now, false);
      }
      // Its line was shown already: only a location is news.
      if (takeMatching(job.linesAhead, annotation.level, annotation.message) !== undefined) return where === undefined ? [] : [{ kind: 'annotation', job, ...annotation }];
      // A job that ended (or a snapshot of one) emits no more lines to wait for.
      if (TERMINAL_STATUSES.has(job.status)) return [{ kind: 'annotation', job, ...annotation }];
      job.annotationsAhead.push(annotation);
      return [];
    }
    default:
      return [];
  }
}

/**
 * The runner writes each annotation into the step's log where it happens (`##[error]<message>`,
 * its first line) and reports it on the timeline, which reaches the feed first: its step's log
 * lines come when a page of the log is uploaded. So an annotation is held until its line comes
 * and printed there, in the line's place, as GitHub's log view shows it; one whose line never
 * comes (a feed reconnected past it, an annotation not logged) is printed when its job ends.
 */
const ANNOTATION_LINE = /^##\[(error|warning|notice)\](.*)$/;

function takeMatching(list: Annotation[], level: string, message: string): Annotation | undefined {
  const index = list.findIndex((candidate) => sameAnnotation(candidate, level, message));
  return index === -1 ? undefined : list.splice(index, 1)[0];
}

/** A log line shows an annotation's first line only. */
function sameAnnotation(candidate: Annotation, level: string, message: string): boolean {
  return candidate.level === level && firstLine(candidate.message) === firstLine(message);
}

/**
 * Releases the lines held since a line came before its annotation, in order, up to the next line
 * still waiting for one (all of them when `all`: the job ended, or the wait is over). A line
 * released without its annotation is remembered, so the annotation coming later shows only its
 * location, if it has one.
 */
function release(job: JobState, now: number, all: boolean): RunChange[] {
  const held = job.held;
  if (held === undefined) return [];
  const changes: RunChange[] = [];
  while (held.items.length > 0) {
    const item = held.items[0]!;
    if ('text' in item) {
      remember(job, item.text);
      changes.push({ kind: 'log', job, text: item.text });
    } else if (item.located) {
      changes.push(shown(job, { ...item.marker, where: item.where }));
    } else if (all) {
      job.linesAhead.push(item.marker);
      changes.push(shown(job, item.marker));
    } else {
      held.since = now;
      return changes;
    }
    held.items.shift();
  }
  job.held = undefined;
  return changes;
}

/** Lines held longer than HOLD_MS, released without the annotations they waited for. */
export function releaseOverdue(state: RunState, now: number): RunChange[] {
  return [...state.jobs.values()].flatMap((job) => (job.held !== undefined && now - job.held.since >= HOLD_MS ? release(job, now, true) : []));
}

function shown(job: JobState, annotation: Annotation): RunChange {
  const change: RunChange = { kind: 'annotation', job, ...annotation };
  remember(job, annotationText(annotation));
  return change;
}

function firstLine(message: string): string {
  const newline = message.search(/\r?\n/);
  return newline === -1 ? message : message.slice(0, newline);
}

/** The annotations of a job that ended without their log lines, in the order they came. */
function annotationsLeft(job: JobState): RunChange[] {
  return job.annotationsAhead.splice(0).map((annotation): RunChange => ({ kind: 'annotation', job, ...annotation }));
}

function remember(job: JobState, text: string): void {
  job.log.push(text);
  if (job.log.length > LOG_TAIL) job.log.splice(0, job.log.length - LOG_TAIL);
}

/** `error: src/a.c:3: message`: an annotation as a line (after the job's name). */
export function annotationText(annotation: Annotation): string {
  return `${annotation.level}: ${annotation.where === undefined ? '' : `${annotation.where}: `}${annotation.message}`;
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
    job = { id, name: `job ${id}`, status: UNKNOWN, conclusion: null, reason: undefined, startedAt: undefined, completedAt: undefined, steps: [], pendingReasons: new Set(), log: [], annotationsAhead: [], linesAhead: [], held: undefined };
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
