import type { Conclusion, Status } from './statuses.js';

/**
 * How a concurrency group holds waiters: `single`, one (a newcomer replaces it, cancelling it);
 * `max`, up to 100, started in the order they began waiting (GitHub's `concurrency.queue`).
 */
export type ConcurrencyQueue = 'single' | 'max';

/** Plain JSON as stored in text columns. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export type TriggerSource = 'local' | 'webhook' | 'rest';

export interface RunRecord {
  readonly id: number;
  readonly workflowId: string;
  readonly workflowPath: string;
  readonly workflowName: string;
  readonly repository: string;
  readonly runNumber: number;
  readonly runAttempt: number;
  readonly displayTitle: string;
  readonly event: string;
  readonly ref: string;
  readonly sha: string;
  readonly actor: string;
  readonly trigger: TriggerSource;
  readonly status: Status;
  readonly conclusion: Conclusion | null;
  readonly reason: string | null;
  readonly concurrencyGroup: string | null;
  readonly cancelInProgress: boolean;
  readonly concurrencyQueue: ConcurrencyQueue;
  /** Its place in its group's queue, taken when it began waiting on the group (null before). */
  readonly concurrencyTicket: number | null;
  readonly payload: Json;
  readonly cancelRequested: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  /** The `vars` context the run was planned with (global < repository < run-supplied). */
  readonly vars: Readonly<Record<string, string>>;
  /** Secret names its workflows could read at creation (stored and run-supplied). */
  readonly secretNames: readonly string[];
}

/** Values a submission brought for its run only: names for good, the sealed values while the run lasts. */
export interface RunSuppliedValues {
  readonly secretNames: readonly string[];
  readonly varNames: readonly string[];
  /** Sealed under the secrets key (label `runSuppliedLabel`); null once the run ended. */
  readonly sealed: string | null;
}

/** The sealing label of a run's supplied values: bound to the repository they were given for. */
export function runSuppliedLabel(repository: string): string {
  return `run-supplied:${repository}`;
}

export interface JobRecord {
  readonly id: number;
  readonly runId: number;
  /** The job's key in the workflow (`build`; `call/build` inside a called workflow). */
  readonly jobKey: string;
  /** Stable id of this instance within the run (matrix combination, reusable nesting). */
  readonly instanceId: string;
  readonly name: string;
  /** Job keys this job needs (direct). */
  readonly needs: readonly string[];
  readonly matrix: Json;
  readonly strategy: Json;
  readonly runsOn: readonly string[];
  readonly ifCondition: string | null;
  readonly continueOnError: boolean;
  readonly timeoutMinutes: number;
  readonly concurrencyGroup: string | null;
  readonly cancelInProgress: boolean;
  readonly concurrencyQueue: ConcurrencyQueue;
  /** Its place in its group's queue, taken when it began waiting on the group (null before). */
  readonly concurrencyTicket: number | null;
  readonly status: Status;
  readonly conclusion: Conclusion | null;
  readonly reason: string | null;
  readonly outputs: Readonly<Record<string, string>>;
  readonly attempt: number;
  readonly runnerId: string | null;
  readonly runnerName: string | null;
  /** Until when the runner holds the job (epoch ms) unless it renews. */
  readonly leaseExpiresAt: number | null;
  readonly cancelRequested: boolean;
  /** A stand-in whose instances are expanded once its needs finish. */
  readonly deferred: boolean;
  /** While it runs: the node that last heard from its runner (claim or lock renewal), and when. */
  readonly nodeId: string | null;
  readonly heardAt: number | null;
  /** The node whose built-in pool launched its runner (a guest dies with its machine); null for other runners. */
  readonly homeNodeId: string | null;
  /** The job's `environment:` (name, and url as written), null without one. */
  readonly environment: JobEnvironment | null;
  /** When the environment's wait timer ends (epoch ms), once it started. */
  readonly environmentWaitUntil: number | null;
  /** The approval that released the job from its environment's reviewer rule. */
  readonly environmentApproval: EnvironmentApproval | null;
  readonly createdAt: number;
  readonly queuedAt: number | null;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
}

export interface StepRecord {
  readonly jobId: number;
  readonly number: number;
  readonly name: string;
  readonly status: Status;
  readonly conclusion: Conclusion | null;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
}

/** A job's `environment:`: its name, and its url as written (a literal or an expression the runner evaluates). */
export interface JobEnvironment {
  readonly name: string;
  readonly url: string | null;
}

/** An environment approval: the system bearer approves as `admin_override` (spec, Authentication rule 14). */
export interface EnvironmentApproval {
  readonly kind: 'admin_override';
  /** Who approved (the system bearer's holder: `system`). */
  readonly by: string;
  /** When (epoch ms). */
  readonly at: number;
}
