import { InputError } from '../../kernel/index.js';
import type { StepRecord } from '../model/records.js';
import { isTerminal, STATUSES, type Conclusion, type Status } from '../model/statuses.js';
import type { EngineExecutor } from '../store/engine-db.js';
import { toStepRecord } from '../store/mappers.js';
import type { StepsTable } from '../store/tables.js';
import { heldJob } from './job-holder.js';
import type { ReportingContext } from './reporting-context.js';

/** A step as the runner reports it (timeline record). Times are epoch milliseconds. */
export interface StepReport {
  readonly number: number;
  readonly name: string;
  readonly status: Status;
  readonly conclusion?: Conclusion;
  readonly startedAt?: number;
  readonly completedAt?: number;
}

/**
 * Records the steps of a job, as its runner reports them: new steps are inserted, changed ones
 * updated, unchanged ones left alone, so a repeated report changes nothing. A late report never
 * moves a finished step back (the runner's updates may arrive out of order), and fields a
 * report leaves out keep their stored value. The first report of a re-run's attempt replaces
 * the previous attempt's steps. Returns how many steps were written.
 */
export async function reportSteps(ctx: ReportingContext, jobId: number, runnerId: string, steps: readonly StepReport[]): Promise<number> {
  for (const step of steps) checkStep(step);
  // The last report of a step number in one batch wins.
  const latest = new Map(steps.map((step) => [step.number, step]));
  return ctx.tx(async (uow) => {
    const job = await heldJob(uow, jobId, runnerId, ctx.rowLocks);
    await uow.tx.deleteFrom('engine_steps').where('job_id', '=', jobId).where('attempt', '<', job.attempt).execute();
    const rows = await uow.tx.selectFrom('engine_steps').selectAll().where('job_id', '=', jobId).execute();
    const stored = new Map(rows.map((row) => [Number(row.number), row]));
    let written = 0;
    for (const step of latest.values()) {
      const before = stored.get(step.number);
      const next = merged(before, step, jobId, job.attempt);
      if (next === undefined) continue;
      if (before === undefined) {
        await uow.tx.insertInto('engine_steps').values(next).execute();
      } else {
        const { job_id: _job, number: _number, ...changes } = next;
        await uow.tx.updateTable('engine_steps').set(changes).where('job_id', '=', jobId).where('number', '=', step.number).execute();
      }
      written++;
    }
    return written;
  });
}

/** The steps of a run's jobs (each job's latest attempt), by job then number. */
export async function listSteps(db: EngineExecutor, runId: number): Promise<StepRecord[]> {
  const rows = await db
    .selectFrom('engine_steps as s')
    .innerJoin('engine_jobs as j', (join) => join.onRef('j.id', '=', 's.job_id').onRef('j.attempt', '=', 's.attempt'))
    .selectAll('s')
    .where('j.run_id', '=', runId)
    .orderBy('s.job_id')
    .orderBy('s.number')
    .execute();
  return rows.map(toStepRecord);
}

/** The row to write, or undefined when the report changes nothing (or is stale). */
function merged(before: StepsTable | undefined, step: StepReport, jobId: number, attempt: number): StepsTable | undefined {
  const status = step.status;
  if (before && isTerminal(before.status as Status) && !isTerminal(status)) return undefined;
  const terminal = isTerminal(status);
  const next: StepsTable = {
    job_id: jobId,
    number: step.number,
    name: step.name,
    status,
    conclusion: terminal ? (step.conclusion ?? (before?.conclusion as Conclusion | null | undefined) ?? status) : null,
    started_at: step.startedAt ?? nullableNumber(before?.started_at ?? null),
    completed_at: step.completedAt ?? nullableNumber(before?.completed_at ?? null),
    attempt,
  };
  if (
    before &&
    before.name === next.name &&
    before.status === next.status &&
    before.conclusion === next.conclusion &&
    nullableNumber(before.started_at) === next.started_at &&
    nullableNumber(before.completed_at) === next.completed_at &&
    Number(before.attempt) === attempt
  ) {
    return undefined;
  }
  return next;
}

function nullableNumber(value: number | null): number | null {
  return value === null ? null : Number(value);
}

function checkStep(step: StepReport): void {
  if (!Number.isSafeInteger(step.number) || step.number < 0) {
    throw new InputError(`step number ${step.number} is not valid; steps are numbered from 0`, { code: 'step_invalid' });
  }
  if (!(STATUSES as readonly string[]).includes(step.status)) {
    throw new InputError(`step ${step.number} has status '${step.status}'; use one of ${STATUSES.join(', ')}`, { code: 'step_invalid' });
  }
}
