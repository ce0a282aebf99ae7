import type { RunEvent } from '../../../core/engine/index.js';

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

/**
 * One line of `GET /api/v1/runs/{run_id}/events.ndjson` (spec, "NDJSON run events"): the engine's
 * own event type, imported as a type only (nothing of the engine loads in the CLI).
 */
export type FeedEvent = RunEvent;

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['success', 'failure', 'cancelled', 'skipped']);
