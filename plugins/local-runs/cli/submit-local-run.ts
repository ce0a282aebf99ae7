import { apiRequest, type ServerConnection } from '../../../core/kernel/cli/index.js';
import type { RunOptions } from './run-options.js';
import type { InputValue, RunValues } from './run-values.js';

export interface SubmitBody {
  readonly repository: string;
  readonly snapshot: string;
  readonly workflow: string;
  readonly event: string;
  readonly base?: string;
  readonly payload?: Record<string, unknown>;
  readonly job?: readonly string[];
  /** workflow_dispatch inputs (`--input`, `--input-file`), over the payload's `inputs`. */
  readonly inputs?: Readonly<Record<string, InputValue>>;
  /** Run-supplied secrets (`--secret`, `--secret-file`): kept by the server for the run's lifetime only. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Run-supplied configuration variables (`--var`, `--var-file`). */
  readonly vars?: Readonly<Record<string, string>>;
}

/** The submission for the one workflow file: fields left out when not given (the server applies its defaults). */
export function submitBody(
  repository: string,
  snapshot: string,
  workflow: string,
  flags: Pick<RunOptions, 'event' | 'base' | 'jobs'>,
  payload: Record<string, unknown> | undefined,
  values: RunValues,
): SubmitBody {
  const given = <T extends object>(map: T) => Object.keys(map).length > 0;
  return {
    repository,
    snapshot,
    workflow,
    event: flags.event,
    ...(flags.base === undefined ? {} : { base: flags.base }),
    ...(payload === undefined ? {} : { payload }),
    ...(flags.jobs.length === 0 ? {} : { job: flags.jobs }),
    ...(given(values.inputs) ? { inputs: values.inputs } : {}),
    ...(given(values.secrets) ? { secrets: values.secrets } : {}),
    ...(given(values.vars) ? { vars: values.vars } : {}),
  };
}

export interface SubmittedRun {
  readonly run_id: number;
  readonly workflow: string;
  readonly status: string;
  readonly url: string;
  readonly warnings: readonly string[];
}

/** `POST /api/v1/runs`: the run the server created for the one workflow file. */
export async function submitRun(connection: ServerConnection, body: SubmitBody): Promise<SubmittedRun> {
  const response = await apiRequest(connection, 'POST', '/api/v1/runs', body);
  const answer = (await response.json()) as { runs: readonly SubmittedRun[] };
  const [run] = answer.runs;
  if (run === undefined) throw new Error(`the server created no run for ${body.workflow}`);
  return run;
}
