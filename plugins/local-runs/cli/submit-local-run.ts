import { apiRequest, type ServerConnection } from '../../../core/kernel/cli/index.js';

export interface SubmitBody {
  readonly repository: string;
  readonly snapshot: string;
  readonly workflow: string;
  readonly event: string;
  readonly base?: string;
  readonly payload?: Record<string, unknown>;
  readonly job?: readonly string[];
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
