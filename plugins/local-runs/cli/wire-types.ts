/**
 * What `svc run` reads from the engine's API, as the wire has it (the engine plugin owns these
 * shapes; plugins do not import each other, so the client keeps its own reading of them).
 */
export interface StepWire {
  readonly number: number;
  readonly name: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
}

export interface JobWire {
  readonly id: number;
  readonly name: string;
  readonly job_key: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly reason: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly steps: readonly StepWire[];
}

/** `GET /api/v1/runs/{run_id}`. */
export interface RunWire {
  readonly id: number;
  readonly workflow: { readonly name: string; readonly path: string };
  readonly status: string;
  readonly conclusion: string | null;
  readonly reason: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly jobs: readonly JobWire[];
}

/** One line of `GET /api/v1/runs/{run_id}/events.ndjson` (spec, "NDJSON run events"). */
export type FeedEvent =
  | { readonly type: 'run_accepted'; readonly run_id: number; readonly queued_jobs: number }
  | { readonly type: 'run_status'; readonly run_id: number; readonly status: string; readonly reason?: string }
  | { readonly type: 'job_status'; readonly run_id: number; readonly job_id: number; readonly status: string; readonly reason?: string }
  | { readonly type: 'log'; readonly run_id: number; readonly job_id: number; readonly line: string }
  | {
      readonly type: 'annotation';
      readonly run_id: number;
      readonly job_id: number;
      readonly level: string;
      readonly message: string;
      readonly file?: string;
      readonly line?: number;
      readonly title?: string;
    }
  | { readonly type: 'job_completed'; readonly run_id: number; readonly job_id: number; readonly status: string; readonly outputs: Readonly<Record<string, string>> }
  | { readonly type: 'check_run_created'; readonly run_id: number };

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['success', 'failure', 'cancelled', 'skipped']);
