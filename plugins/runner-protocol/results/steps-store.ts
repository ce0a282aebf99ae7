/**
 * A job's steps as `WorkflowStepsUpdate` reports them (§4.6). The runner numbers its updates
 * (`change_order`, 1, 2, ... per job) and may deliver them out of order (its HTTP stack retries),
 * so each step keeps the newest update that named it: an older one is ignored, an equal one (a
 * resend) applied again. The engine is then told the stored state, not the request's
 * (step-update-route.ts).
 *
 * It also maps a step's record id (`step_backend_id` of its logs) to its number.
 */
import type { Clock } from '../../../core/ports/index.js';
import type { TaskResultName, TimelineRecordStateName } from '../../../core/protocol/index.js';
import type { JobScope, StepState } from '../worker-api/index.js';
import type { ResultsDb, ResultsExecutor, ResultsStepsTable } from './results-tables.js';

/** A step of an update, in the timeline's names. */
export interface StepUpdate extends StepState {
  readonly externalId: string;
}

/** A step as kept: the update that last set it. */
export interface StoredStep extends StepUpdate {
  readonly changeOrder: number;
}

export interface StepsStore {
  /** Applies one update; the stored state of every step it named, newer updates included. */
  apply(scope: JobScope, changeOrder: number, steps: readonly StepUpdate[]): Promise<StoredStep[]>;
  /** The stored state of these steps (those known). */
  get(scope: JobScope, externalIds: readonly string[]): Promise<StoredStep[]>;
  /** The number of a step by its record id; undefined when no update named it. */
  numberOf(scope: JobScope, externalId: string): Promise<number | undefined>;
}

const COLUMNS = ['external_id', 'number', 'name', 'state', 'result', 'started_at', 'completed_at', 'change_order'] as const;

function toStep(row: Pick<ResultsStepsTable, (typeof COLUMNS)[number]>): StoredStep {
  return {
    externalId: row.external_id,
    number: Number(row.number),
    name: row.name ?? undefined,
    state: (row.state ?? undefined) as TimelineRecordStateName | undefined,
    result: (row.result ?? undefined) as TaskResultName | undefined,
    startTime: row.started_at === null ? undefined : Number(row.started_at),
    finishTime: row.completed_at === null ? undefined : Number(row.completed_at),
    changeOrder: Number(row.change_order),
  };
}

async function read(db: ResultsExecutor, scope: JobScope, externalIds: readonly string[]): Promise<StoredStep[]> {
  if (externalIds.length === 0) return [];
  const rows = await db.selectFrom('runner_results_steps').select(COLUMNS).where('job_record_id', '=', scope.jobRecordId).where('external_id', 'in', externalIds).execute();
  return rows.map(toStep);
}

export function createStepsStore(db: ResultsDb, clock: Clock): StepsStore {
  return {
    async apply(scope, changeOrder, steps) {
      const now = clock.now();
      // The last mention of a step in one update wins.
      const latest = new Map(steps.map((step) => [step.externalId, step]));
      if (latest.size === 0) return [];
      return db.transaction().execute(async (tx) => {
        for (const step of latest.values()) {
          const fields = {
            number: step.number,
            name: step.name ?? null,
            state: step.state ?? null,
            result: step.result ?? null,
            started_at: step.startTime ?? null,
            completed_at: step.finishTime ?? null,
            change_order: changeOrder,
            updated_at: now,
          };
          // One statement per step: the newer-wins rule holds under concurrent updates on any store.
          await tx
            .insertInto('runner_results_steps')
            .values({ job_record_id: scope.jobRecordId, external_id: step.externalId, job_id: scope.jobId, attempt: scope.attempt, ...fields })
            .onConflict((oc) => oc.columns(['job_record_id', 'external_id']).doUpdateSet(fields).where('runner_results_steps.change_order', '<=', changeOrder))
            .execute();
        }
        return read(tx, scope, [...latest.keys()]);
      });
    },
    get: (scope, externalIds) => read(db, scope, externalIds),
    async numberOf(scope, externalId) {
      const row = await db
        .selectFrom('runner_results_steps')
        .select('number')
        .where('job_record_id', '=', scope.jobRecordId)
        .where('external_id', '=', externalId)
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.number);
    },
  };
}
