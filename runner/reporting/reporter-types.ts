/**
 * What the worker reports and how: the timeline record model (RUNNER-PROTOCOL.md §4.2), the
 * reporter interface both modes implement, and the job's completion (§4.8).
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import { DEFAULT_OUTAGE_MS } from './http.js';

export type IssueType = 'error' | 'warning' | 'notice';

/** An issue on a record: an annotation (§4.2, §4.7). `data` values are strings, as on the wire. */
export interface RecordIssue {
  readonly type: IssueType;
  readonly message: string;
  readonly category?: string;
  readonly isInfrastructureIssue?: boolean;
  /** `file`, `line`, `col`, `endLine`, `endColumn`, `title`, `logFileLineNumber`, `stepNumber`. */
  readonly data: Readonly<Record<string, string>>;
}

export type RecordState = 'pending' | 'inProgress' | 'completed';

/** A whole timeline record, as the worker keeps it; the reporter sends it the way its mode needs. */
export interface TimelineRecord {
  readonly id: string;
  /** The job record's id for steps; null for the job record. */
  readonly parentId: string | null;
  readonly type: 'Job' | 'Task';
  readonly name: string;
  readonly refName: string;
  /** 1 = "Set up job", then the steps; null for the job record (the server orders it). */
  readonly order: number | null;
  readonly state: RecordState;
  readonly result: TaskResultName | null;
  readonly resultCode?: string;
  readonly startTime: Date | null;
  readonly finishTime: Date | null;
  readonly percentComplete: number;
  readonly errorCount: number;
  readonly warningCount: number;
  readonly noticeCount: number;
  readonly issues: readonly RecordIssue[];
  /** What a step runs, for step results (`run`, `runner`, an action's name). */
  readonly stepType?: string;
}

export interface JobCompletion {
  readonly result: TaskResultName;
  /** Job outputs already cleared of empty and secret-bearing values (§4.10). */
  readonly outputs: Readonly<Record<string, string>>;
  /** The deployment environment and its evaluated URL, when the job has one. */
  readonly environment?: { readonly name: string; readonly url?: string };
  /** Job-level issues sent as `annotations` (run service, with `actions_send_job_level_annotations`). */
  readonly jobAnnotations?: readonly RecordIssue[];
}

/**
 * Where the worker reports. Nothing here blocks a step on the network: updates, log lines,
 * summaries are queued and sent in the background on the modes' cadences, retried, and flushed
 * by `completeJob`. Everything is masked before it is queued.
 */
export interface Reporter {
  /** The record's current state (the reporter merges successive updates of one id). */
  updateRecord(record: TimelineRecord): void;
  /** Appends a line (or several, split at `\n`) to a record's log; answers the last line's number (1-based). */
  appendLog(recordId: string, text: string): number;
  /** The record's log is complete (its last page is uploaded). */
  endLog(recordId: string): void;
  /** A step's summary (`$GITHUB_STEP_SUMMARY`, already under the size limit). */
  attachStepSummary(stepRecordId: string, markdown: string): void;
  /**
   * Flushes everything, then tells the server the job's result (`JobCompleted` or `completejob`).
   * Rejects when the server could not be told after the retries.
   */
  completeJob(completion: JobCompletion): Promise<void>;
  /** Stops the background work; queued work not sent by then is dropped. */
  close(): Promise<void>;
}

/** Diagnostics of the reporter itself (failed uploads, retries): the worker's stderr. */
export type DiagnosticLog = (message: string) => void;

export interface ReporterTimings {
  /** Timeline and step-update cadence (the runner's 500 ms). */
  readonly recordsMs: number;
  /** Log upload cadence (1 s). */
  readonly uploadsMs: number;
  /** Live feed cadence: 250 ms during the first minute, then 500 ms. */
  readonly feedFastMs: number;
  readonly feedMs: number;
  /** Completion attempts (5) and the pause between them (5 s). */
  readonly completionAttempts: number;
  readonly completionRetryMs: number;
  /** Per HTTP request (100 s, as the runner's clients). */
  readonly requestTimeoutMs: number;
  /** How long each report is retried while the server is unreachable (15 minutes; http.ts). */
  readonly outageMs: number;
}

export const DEFAULT_REPORTER_TIMINGS: ReporterTimings = {
  recordsMs: 500,
  uploadsMs: 1_000,
  feedFastMs: 250,
  feedMs: 500,
  completionAttempts: 5,
  completionRetryMs: 5_000,
  requestTimeoutMs: 100_000,
  outageMs: DEFAULT_OUTAGE_MS,
};
