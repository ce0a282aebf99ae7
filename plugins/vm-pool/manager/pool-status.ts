import type { IsolationKind } from '../backends/index.js';

/**
 * A guest's phase: `starting` (registered and launched, its runner not connected yet), `idle`
 * (connected, waiting for a job), `busy` (handed a job), `stopping` (asked to stop).
 */
export type GuestPhase = 'starting' | 'idle' | 'busy' | 'stopping';

export interface GuestStatus {
  readonly guestId: string;
  /** The runner's name (the guest id) and registration id, once registered. */
  readonly runnerId: number | undefined;
  readonly phase: GuestPhase;
  readonly pid: number | undefined;
  readonly launchedAt: number;
}

export interface PoolStatus {
  readonly backend: IsolationKind;
  readonly state: 'running' | 'backing-off' | 'stopping' | 'stopped';
  readonly warm: number;
  readonly max: number;
  readonly labels: readonly string[];
  readonly guests: readonly GuestStatus[];
  /** Totals since start. */
  readonly launched: number;
  readonly exited: number;
  readonly jobsTaken: number;
  /** Guests that failed (launch error, or exit before taking a job) one after the other. */
  readonly consecutiveFailures: number;
  readonly lastFailure: string | undefined;
  /** Epoch ms of the next launch while backing off. */
  readonly retryAt: number | undefined;
}

/** Failures in a row from which the pool counts as crash-looping (status warning). */
export const CRASH_LOOP_FAILURES = 3;

export function countPhase(status: PoolStatus, ...phases: GuestPhase[]): number {
  return status.guests.filter((guest) => phases.includes(guest.phase)).length;
}
