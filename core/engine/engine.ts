import { waitForWake, type Clock, type Database, type Notifier } from '../ports/index.js';
import type { Logger } from '../kernel/index.js';
import { claimJob, findCandidates, type Assignment, type RunnerIdentity } from './dispatch/acquire.js';
import { JOBS_QUEUED_CHANNEL, type RunEvent } from './events/run-events.js';
import type { JobRecord, RunRecord, RunSuppliedValues } from './model/records.js';
import { completeJob as recordCompletion, type Completion } from './reporting/complete-job.js';
import { insertRun, type CreateRunInput } from './runs/create-run.js';
import { resetForRerun, type RerunScope } from './runs/rerun.js';
import { loadRunFiles, type RunFiles } from './runs/run-files.js';
import { advanceRun } from './scheduler/advance-run.js';
import { expandDeferredJob } from './scheduler/expand-deferred.js';
import { failHeldRun, groupWaiters, requestJobCancel, requestRunCancel } from './scheduler/concurrency.js';
import { createIfEvaluator } from './scheduler/job-if.js';
import { engineDb } from './store/engine-db.js';
import { loadJob, loadJobs, loadRun, loadSuppliedValues } from './store/queries.js';
import { inTransaction, type UnitOfWork } from './store/unit-of-work.js';
import { sweep, type SweepReport } from './scheduler/sweep.js';
import { approveJob, type ApprovalResult, type EnvironmentRules } from './environments/index.js';
import { failedRunInput } from './selection/failed-run.js';
import { reviewCandidate, type SelectionPolicy } from './selection/policy.js';
import { selectRuns, type SelectionRequest } from './selection/select-runs.js';

export interface EngineDependencies {
  readonly database: Database;
  readonly notifier: Notifier;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * This node's id (`SVC_NODE_ID`): recorded on a job whenever its runner is heard from through
   * this node (claim, lock renewal), so that when this node dies the others know which jobs only
   * it was hearing from (scheduler/dead-node-jobs.ts).
   */
  readonly nodeId: string;
  /** Base URL of this installation (github.server_url for expressions). */
  readonly serverUrl: () => string;
  /** Policies reviewing every run an event would create (read at each submission). */
  readonly policies?: () => readonly SelectionPolicy[];
  /** The operator's environment rules (`[environment_rules]`); none when absent. */
  readonly environmentRules?: EnvironmentRules;
}

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly leaseMs: number;
  readonly signal?: AbortSignal;
}

/** What became of one workflow file of a submission. */
export type Submitted =
  | { readonly path: string; readonly outcome: 'created'; readonly run: RunRecord; readonly warnings: readonly string[] }
  | { readonly path: string; readonly outcome: 'not_triggered'; readonly reason: string }
  | { readonly path: string; readonly outcome: 'denied'; readonly policy: string; readonly reason: string }
  | { readonly path: string; readonly outcome: 'unknown_job'; readonly job: string; readonly jobs: readonly string[] }
  | { readonly path: string; readonly outcome: 'invalid'; readonly errors: readonly string[]; readonly run?: RunRecord }
  /** The dispatch's inputs do not fit the workflow's: nothing is created. */
  | { readonly path: string; readonly outcome: 'invalid_inputs'; readonly errors: readonly string[] };

export interface StoredEvent {
  readonly seq: number;
  readonly event: RunEvent;
}

/**
 * The run engine: runs and jobs in the store, moved by conditional updates in transactions,
 * so any node can continue any run. Dispatch hands queued jobs to runners whose labels match;
 * completions advance the run and wake whoever waits.
 */
export interface Engine {
  createRun(input: CreateRunInput): Promise<RunRecord>;
  /**
   * Creates the runs an event triggers (one transaction each): every workflow file is loaded,
   * matched and planned; a file that cannot run gets a failed run carrying its errors, as on GitHub.
   */
  submit(request: SelectionRequest): Promise<Submitted[]>;
  getRun(runId: number): Promise<RunRecord | undefined>;
  listJobs(runId: number): Promise<JobRecord[]>;
  getJob(jobId: number): Promise<JobRecord | undefined>;
  /** The workflow files stored with a run (what `Assignment.files` holds; run-files.ts); empty for an unknown run. */
  runFiles(runId: number): Promise<RunFiles>;
  events(runId: number, afterSeq?: number): Promise<StoredEvent[]>;
  /** The values a run's submission brought (sealed; `sealed` null once it ended); undefined when none. */
  runSuppliedValues(runId: number): Promise<RunSuppliedValues | undefined>;
  /** Re-runs the scheduler over a run (after a lost notification, on another node, ...). */
  advance(runId: number): Promise<RunRecord | undefined>;
  /** The next queued job this runner can run, claimed with a lease; undefined when none. */
  acquireJob(runner: RunnerIdentity, leaseMs: number): Promise<Assignment | undefined>;
  /** Long poll: waits for a job (woken by the notifier, re-reading at least every 5 s). */
  waitForJob(runner: RunnerIdentity, options: WaitOptions): Promise<Assignment | undefined>;
  /** Extends the runner's lease; tells it whether cancellation was requested. */
  renewJob(jobId: number, runnerId: string, leaseMs: number): Promise<{ readonly held: boolean; readonly cancelRequested: boolean; readonly leaseExpiresAt: number }>;
  completeJob(jobId: number, runnerId: string, completion: Completion): Promise<boolean>;
  /**
   * Puts a job its runner never started back in the queue (the message was not taken): only
   * the runner holding it may, and only while it holds it. False otherwise.
   */
  releaseJob(jobId: number, runnerId: string): Promise<boolean>;
  cancelRun(runId: number): Promise<RunRecord | undefined>;
  cancelJob(jobId: number): Promise<JobRecord | undefined>;
  /** Lets a run held behind `gate` go (fork approval, environment approval, ...). False if it was not held there. */
  releaseGate(runId: number, gate: string): Promise<boolean>;
  /**
   * Approves a job its environment's reviewer rule holds (recorded as `admin_override` by `by`)
   * and queues it. `not_found` when the run has no such job, `not_waiting` when it is not held.
   */
  approveJob(runId: number, jobId: number, by: string): Promise<ApprovalResult>;
  /** Fails a run held behind `gate` (the gate closed: refused, or timed out). */
  closeGate(runId: number, gate: string, reason: string): Promise<boolean>;
  /** Re-runs a finished run in place (next attempt): all jobs, the failed ones, or one job, with dependants. */
  rerun(runId: number, scope: RerunScope): Promise<RunRecord | undefined>;
  /** Expired leases, timeouts and stalled runs; the scheduler worker calls it periodically. */
  sweep(): Promise<SweepReport>;
  /**
   * A server (re)starting: every running job last heard through this node (or through no node
   * known: rows from before node ids) has its lease last at least `graceMs` from now, so runners
   * that kept their jobs going while the control plane was down (crash, upgrade) can renew before
   * the sweep judges their leases lapsed. Other nodes' jobs are theirs: a restarting node never
   * keeps a dead node's jobs alive. Answers how many leases were extended.
   */
  grantReconnectGrace(graceMs: number): Promise<number>;
}

const REREAD_MS = 5000;

export function createEngine(deps: EngineDependencies): Engine {
  const db = engineDb(deps.database);
  const rowLocks = deps.database.capabilities.rowLocks;
  const evaluateIf = createIfEvaluator(deps.serverUrl);
  const tx = <T>(work: (uow: UnitOfWork) => Promise<T>) => inTransaction(db, deps.clock, deps.notifier, work);
  // Reads through the caller's transaction: on SQLite the one connection is held by it.
  const expand = async (uow: UnitOfWork, run: RunRecord, job: JobRecord, needs: Parameters<typeof expandDeferredJob>[2]) => {
    return expandDeferredJob(run, job, needs, await loadRunFiles(uow.tx, run.id), deps.serverUrl());
  };
  const environmentRules: EnvironmentRules = deps.environmentRules ?? (() => undefined);
  const advanceIn = (uow: UnitOfWork, runId: number) => advanceRun(uow, runId, { rowLocks, evaluateIf, expand, environmentRules });
  /** Advances a run, then whatever waited on a concurrency group it or its job just freed. */
  const advanceWithWaiters = async (uow: UnitOfWork, runId: number, jobGroup: string | null = null) => {
    const run = await advanceIn(uow, runId);
    const freed = [jobGroup, run && run.completedAt !== null ? run.concurrencyGroup : null];
    for (const waiter of await groupWaiters(uow, freed)) if (waiter !== runId) await advanceIn(uow, waiter);
    return run;
  };

  const engine: Engine = {
    runFiles: (runId) => loadRunFiles(db, runId),
    async createRun(input) {
      return tx(async (uow) => {
        const runId = await insertRun(uow, input);
        const run = await advanceIn(uow, runId);
        const jobs = await loadJobs(uow.tx, runId);
        await uow.event({ type: 'run_accepted', run_id: runId, queued_jobs: jobs.filter((j) => j.status === 'queued').length });
        if (!run) throw new Error(`run ${runId} vanished while it was created`);
        return run;
      });
    },
    async submit(request) {
      const results: Submitted[] = [];
      for (const selection of await selectRuns(request)) {
        if (selection.kind === 'not_triggered') {
          results.push({ path: selection.path, outcome: 'not_triggered', reason: selection.reason });
        } else if (selection.kind === 'unknown_job') {
          results.push({ path: selection.path, outcome: 'unknown_job', job: selection.job, jobs: selection.jobs });
        } else if (selection.kind === 'invalid_inputs') {
          results.push({ path: selection.path, outcome: 'invalid_inputs', errors: selection.errors });
        } else if (selection.kind === 'invalid') {
          const run = await tx(async (uow) => {
            const input = failedRunInput(request, selection.path, selection.name);
            const reason = `Invalid workflow file: ${selection.errors.join('\n')}`;
            const runId = await insertRun(uow, input, { reason });
            await uow.event({ type: 'run_accepted', run_id: runId, queued_jobs: 0 });
            await uow.event({ type: 'run_status', run_id: runId, status: 'failure', reason });
            return loadRun(uow.tx, runId);
          });
          results.push({ path: selection.path, outcome: 'invalid', errors: selection.errors, ...(run ? { run } : {}) });
        } else {
          const input = selection.input;
          const verdict = await reviewCandidate(deps.policies?.() ?? [], {
            repository: input.repository,
            workflowPath: input.workflow.path,
            workflowName: input.workflow.name,
            event: input.event,
            ref: input.ref,
            sha: input.sha,
            actor: input.actor,
            trigger: input.trigger,
            payload: input.payload,
          });
          if (verdict.action === 'deny') {
            results.push({ path: selection.path, outcome: 'denied', policy: verdict.policy ?? 'policy', reason: verdict.reason });
            continue;
          }
          const held = verdict.action === 'hold' ? { ...input, hold: { gate: verdict.gate, reason: verdict.reason } } : input;
          results.push({ path: selection.path, outcome: 'created', run: await engine.createRun(held), warnings: selection.warnings });
        }
      }
      return results;
    },
    getRun: (runId) => loadRun(db, runId),
    runSuppliedValues: (runId) => loadSuppliedValues(db, runId),
    listJobs: (runId) => loadJobs(db, runId),
    getJob: (jobId) => loadJob(db, jobId),
    async events(runId, afterSeq = 0) {
      const rows = await db.selectFrom('engine_events').select(['seq', 'body']).where('run_id', '=', runId).where('seq', '>', afterSeq).orderBy('seq').execute();
      return rows.map((row) => ({ seq: Number(row.seq), event: JSON.parse(row.body) as RunEvent }));
    },
    advance: (runId) => tx((uow) => advanceIn(uow, runId)),
    async acquireJob(runner, leaseMs) {
      for (const candidate of await findCandidates(db, runner)) {
        const assignment = await tx((uow) => claimJob(uow, candidate.id, runner, leaseMs, rowLocks, deps.nodeId));
        if (assignment) return assignment;
      }
      return undefined;
    },
    async waitForJob(runner, options) {
      const deadline = deps.clock.now() + options.timeoutMs;
      for (;;) {
        const assignment = await engine.acquireJob(runner, options.leaseMs);
        if (assignment) return assignment;
        const remaining = deadline - deps.clock.now();
        if (remaining <= 0 || options.signal?.aborted) return undefined;
        const wait = { timeoutMs: Math.min(remaining, REREAD_MS), ...(options.signal ? { signal: options.signal } : {}) };
        await waitForWake(deps.notifier, JOBS_QUEUED_CHANNEL, wait);
      }
    },
    async renewJob(jobId, runnerId, leaseMs) {
      const now = deps.clock.now();
      const result = await db
        .updateTable('engine_jobs')
        .set({ lease_expires_at: now + leaseMs, updated_at: now, node_id: deps.nodeId, heard_at: now })
        .where('id', '=', jobId)
        .where('status', '=', 'in_progress')
        .where('lease_owner', '=', runnerId)
        .returning(['cancel_requested'])
        .executeTakeFirst();
      return { held: result !== undefined, cancelRequested: Boolean(result?.cancel_requested), leaseExpiresAt: now + leaseMs };
    },
    async completeJob(jobId, runnerId, completion) {
      return tx(async (uow) => {
        const found = await loadJob(uow.tx, jobId);
        if (!found) return false;
        await loadRun(uow.tx, found.runId, rowLocks);
        const job = await loadJob(uow.tx, jobId);
        if (!job) return false;
        const done = await recordCompletion(uow, job, runnerId, completion);
        if (done) await advanceWithWaiters(uow, job.runId, job.concurrencyGroup);
        return done;
      });
    },
    async releaseJob(jobId, runnerId) {
      return tx(async (uow) => {
        const found = await loadJob(uow.tx, jobId);
        if (!found) return false;
        await loadRun(uow.tx, found.runId, rowLocks);
        const released = await uow.tx
          .updateTable('engine_jobs')
          .set({ status: 'queued', runner_id: null, runner_name: null, lease_owner: null, lease_expires_at: null, node_id: null, heard_at: null, home_node_id: null, started_at: null, queued_at: uow.now, updated_at: uow.now })
          .where('id', '=', jobId)
          .where('status', '=', 'in_progress')
          .where('lease_owner', '=', runnerId)
          .where('cancel_requested', '=', 0)
          .executeTakeFirst();
        if (released.numUpdatedRows === 0n) return false;
        await uow.event({ type: 'job_status', run_id: found.runId, job_id: jobId, status: 'queued', reason: 'released by its runner before it started' });
        uow.notify(JOBS_QUEUED_CHANNEL);
        return true;
      });
    },
    async cancelRun(runId) {
      return tx(async (uow) => {
        const run = await loadRun(uow.tx, runId, rowLocks);
        if (!run) return undefined;
        await requestRunCancel(uow, run);
        return advanceWithWaiters(uow, runId);
      });
    },
    async cancelJob(jobId) {
      return tx(async (uow) => {
        const found = await loadJob(uow.tx, jobId);
        if (!found) return undefined;
        await loadRun(uow.tx, found.runId, rowLocks);
        const job = await loadJob(uow.tx, jobId);
        if (!job) return undefined;
        await requestJobCancel(uow, job);
        await advanceWithWaiters(uow, job.runId, job.concurrencyGroup);
        return loadJob(uow.tx, jobId);
      });
    },
    async releaseGate(runId, gate) {
      return tx(async (uow) => {
        const run = await loadRun(uow.tx, runId, rowLocks);
        if (!run || run.status !== 'pending' || run.reason !== `gate:${gate}`) return false;
        await uow.tx
          .updateTable('engine_runs')
          .set({ reason: run.concurrencyGroup === null ? null : 'concurrency', updated_at: uow.now })
          .where('id', '=', runId)
          .where('reason', '=', `gate:${gate}`)
          .execute();
        await advanceIn(uow, runId);
        return true;
      });
    },
    async approveJob(runId, jobId, by) {
      return tx(async (uow) => {
        const result = await approveJob(uow, runId, jobId, by, rowLocks);
        if (result.kind !== 'approved') return result;
        await advanceWithWaiters(uow, runId, result.job.concurrencyGroup);
        return { kind: 'approved', job: (await loadJob(uow.tx, jobId)) ?? result.job };
      });
    },
    async closeGate(runId, gate, reason) {
      return tx(async (uow) => {
        const run = await loadRun(uow.tx, runId, rowLocks);
        if (!run || run.status !== 'pending' || run.reason !== `gate:${gate}`) return false;
        await failHeldRun(uow, run, reason);
        return true;
      });
    },
    async rerun(runId, scope) {
      return tx(async (uow) => {
        await resetForRerun(uow, runId, scope, rowLocks);
        return advanceIn(uow, runId);
      });
    },
    async grantReconnectGrace(graceMs) {
      const until = deps.clock.now() + graceMs;
      const result = await db
        .updateTable('engine_jobs')
        .set({ lease_expires_at: until })
        .where('status', '=', 'in_progress')
        .where((eb) => eb.or([eb('node_id', '=', deps.nodeId), eb('node_id', 'is', null)]))
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', until)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    sweep: () => sweep({ db, nodeId: deps.nodeId, clock: deps.clock, tx, rowLocks, advance: (uow, runId) => advanceWithWaiters(uow, runId), logger: deps.logger }),
  };
  return engine;
}
