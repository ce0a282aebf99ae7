import { runSuppliedLabel, type Engine, type RunRecord } from '../../../core/engine/index.js';
import type { JobValues, SuppliedValues } from '../../../core/ports/index.js';
import { jobSecrets, type JobPlan } from '../job-message/index.js';

/** What a job's message carries of secrets and vars; `vars` undefined: the plan's (the run's). */
export interface MessageValues {
  readonly secrets: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>> | undefined;
}

/**
 * The secrets and vars of one job (core/ports/job-values.ts): the run's supplied values opened,
 * the store's by precedence for the job's repository and `environment:`, then narrowed to what
 * the job reads or its caller passes (job-message/job-secrets.ts). Without the secrets plugin a
 * job gets none.
 */
export async function messageValues(jobValues: JobValues | undefined, engine: Engine, run: RunRecord, plan: JobPlan): Promise<MessageValues> {
  if (jobValues === undefined) return { secrets: {}, vars: undefined };
  const supplied = await suppliedOf(jobValues, engine, run);
  const environment = plan.instance.environment?.name;
  const values = await jobValues.forJob({ repository: run.repository, ...(environment === undefined ? {} : { environment }) }, supplied);
  return { secrets: jobSecrets(plan, values.secrets), vars: values.vars };
}

async function suppliedOf(jobValues: JobValues, engine: Engine, run: RunRecord): Promise<SuppliedValues | undefined> {
  const supplied = await engine.runSuppliedValues(run.id);
  if (supplied === undefined) return undefined;
  if (supplied.sealed === null) {
    // Only an ended run loses them, and an ended run hands out no job: say so rather than run without them.
    throw new Error(`run-supplied secrets are gone when the run ends: ${[...supplied.secretNames, ...supplied.varNames].join(', ')}`);
  }
  return JSON.parse(await jobValues.open(runSuppliedLabel(run.repository), supplied.sealed)) as SuppliedValues;
}
