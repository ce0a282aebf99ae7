import type { ConcurrencyQueue, JobEnvironment, Json, RunSuppliedValues, TriggerSource } from '../model/records.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { nextIds } from '../store/sequences.js';
import type { WorkflowCommit } from './run-files.js';

/** `concurrency:` of a run or a job: its group key (lower-cased), and `queue` (default `single`). */
export interface NewConcurrency {
  readonly group: string;
  readonly cancelInProgress: boolean;
  readonly queue?: ConcurrencyQueue;
}

/** A job instance as planned from the workflow (one per matrix combination and reusable-workflow job). */
export interface NewJob {
  readonly jobKey: string;
  readonly instanceId: string;
  readonly name: string;
  readonly needs: readonly string[];
  readonly matrix: Json;
  /** `fail-fast`, `max-parallel`, `job-index`, `job-total` (the strategy context). */
  readonly strategy: Json;
  readonly runsOn: readonly string[];
  readonly ifCondition: string | null;
  readonly continueOnError: boolean;
  readonly timeoutMinutes: number;
  readonly concurrency: NewConcurrency | null;
  /** `environment:` (null or absent: none); a stand-in's is known once it is expanded. */
  readonly environment?: JobEnvironment | null;
  /** A stand-in: fields read `needs`, so its instances are expanded when they finish. */
  readonly deferred?: boolean;
}

export interface CreateRunInput {
  readonly workflow: { readonly id: string; readonly path: string; readonly name: string };
  readonly repository: string;
  readonly event: string;
  readonly ref: string;
  readonly sha: string;
  readonly actor: string;
  readonly trigger: TriggerSource;
  readonly payload: Json;
  readonly displayTitle: string;
  readonly concurrency: NewConcurrency | null;
  /** The workflow file and every workflow it calls, as read now (run-files.ts says the keys). */
  readonly files: readonly { readonly path: string; readonly content: string; readonly commit?: WorkflowCommit }[];
  readonly jobs: readonly NewJob[];
  /** Held behind a policy gate: created `pending`, nothing runs until the gate is released. */
  readonly hold?: { readonly gate: string; readonly reason: string };
  /** The `vars` context the run was planned with; default none. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Secret names its workflows could read (stored and run-supplied); default none. */
  readonly secretNames?: readonly string[];
  /** Values the submission brought for this run only, already sealed. */
  readonly supplied?: RunSuppliedValues;
}

/**
 * Writes a run with all its jobs in the caller's transaction. Every job starts `pending` on
 * its needs (a job without needs is released by the first scheduling pass, which also applies
 * concurrency and max-parallel); the run starts `pending` until that pass.
 */
export async function insertRun(uow: UnitOfWork, input: CreateRunInput, failed?: { readonly reason: string }): Promise<number> {
  const { tx, now } = uow;
  const runId = await nextIds(tx, 'runs');
  const runNumber = await nextIds(tx, `run_number:${input.workflow.id}`);
  await tx
    .insertInto('engine_runs')
    .values({
      id: runId,
      workflow_id: input.workflow.id,
      workflow_path: input.workflow.path,
      workflow_name: input.workflow.name,
      repository: input.repository,
      run_number: runNumber,
      run_attempt: 1,
      display_title: input.displayTitle,
      event: input.event,
      ref: input.ref,
      sha: input.sha,
      actor: input.actor,
      trigger: input.trigger,
      status: failed ? 'failure' : 'pending',
      conclusion: failed ? 'failure' : null,
      reason: failed ? failed.reason : input.hold ? `gate:${input.hold.gate}` : input.concurrency ? 'concurrency' : null,
      concurrency_group: input.concurrency?.group ?? null,
      cancel_in_progress: input.concurrency?.cancelInProgress ? 1 : 0,
      concurrency_queue: input.concurrency?.queue ?? 'single',
      concurrency_ticket: null,
      payload: JSON.stringify(input.payload),
      cancel_requested: 0,
      created_at: now,
      updated_at: now,
      started_at: null,
      completed_at: failed ? now : null,
      vars: JSON.stringify(input.vars ?? {}),
      secret_names: JSON.stringify(input.secretNames ?? []),
    })
    .execute();
  const supplied = input.supplied;
  if (supplied !== undefined && supplied.secretNames.length + supplied.varNames.length > 0) {
    await tx
      .insertInto('engine_run_values')
      .values({
        run_id: runId,
        secret_names: JSON.stringify(supplied.secretNames),
        var_names: JSON.stringify(supplied.varNames),
        // A run that is created failed never runs: its values are not kept at all.
        sealed: failed ? null : supplied.sealed,
      })
      .execute();
  }
  if (input.files.length > 0) {
    await tx
      .insertInto('engine_run_files')
      .values(input.files.map((f) => ({ run_id: runId, path: f.path, content: f.content, ref: f.commit?.ref ?? null, sha: f.commit?.sha ?? null })))
      .execute();
  }
  if (input.jobs.length > 0) {
    const firstJobId = await nextIds(tx, 'jobs', input.jobs.length);
    const rows = input.jobs.map((job, index) => ({
          id: firstJobId + index,
          run_id: runId,
          job_key: job.jobKey,
          instance_id: job.instanceId,
          name: job.name,
          needs: JSON.stringify(job.needs),
          matrix: JSON.stringify(job.matrix),
          strategy: JSON.stringify(job.strategy),
          runs_on: JSON.stringify(job.runsOn),
          if_condition: job.ifCondition,
          continue_on_error: job.continueOnError ? 1 : 0,
          timeout_minutes: job.timeoutMinutes,
          concurrency_group: job.concurrency?.group ?? null,
          cancel_in_progress: job.concurrency?.cancelInProgress ? 1 : 0,
          concurrency_queue: job.concurrency?.queue ?? 'single',
          concurrency_ticket: null,
          status: 'pending',
          conclusion: null,
          reason: 'needs',
          outputs: '{}',
          attempt: 1,
          runner_id: null,
          runner_name: null,
          lease_owner: null,
          lease_expires_at: null,
          cancel_requested: 0,
          deferred: job.deferred ? 1 : 0,
          environment: job.environment?.name ?? null,
          environment_url: job.environment?.url ?? null,
          created_at: now,
          updated_at: now,
          queued_at: null,
          started_at: null,
          completed_at: null,
        }));
    // SQLite caps the bound parameters of one statement; 500 rows x 33 columns stays below it.
    for (let start = 0; start < rows.length; start += 500) {
      await tx.insertInto('engine_jobs').values(rows.slice(start, start + 500)).execute();
    }
  }
  return runId;
}
