/**
 * The operator's side, as the submit-workflow fragment does it (the replay's request builder):
 * the scenario's files uploaded as a snapshot of `replay/<scenario>` and its workflow submitted;
 * and a run cancelled. Every call carries the system credential, so the recorder sets them apart.
 */
import { readBody } from '../replay/compare.js';
import type { Target } from '../replay/execute.js';
import { prepareRequest, send, type HttpSettings } from '../replay/http.js';
import type { JsonObject, JsonValue, RequestSpec } from '../replay/scenario-types.js';

const NO_LOCATIONS = new Map();

async function call(target: Target, http: HttpSettings, request: Omit<RequestSpec, 'headers'>): Promise<JsonValue | undefined> {
  const spec = { ...request, headers: { authorization: `Bearer ${target.systemToken}`, accept: 'application/json' } } as RequestSpec;
  const answer = await send(await prepareRequest(spec, http, NO_LOCATIONS), http.timeoutMs);
  if (answer.status >= 300) throw new Error(`${request.method} ${String(request.url)} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return readBody(answer).body;
}

/** Uploads the files and submits the workflow; the run's id. */
export async function submitWorkflow(target: Target, http: HttpSettings, repository: string, workflow: { readonly path: string; readonly files: JsonObject }): Promise<number> {
  const upload = (await call(target, http, { method: 'POST', url: `${target.origin}/api/v1/snapshots?repository=${repository}`, body: { tar: workflow.files } })) as { sha: string };
  const body = { json: { repository, snapshot: upload.sha, workflow: workflow.path } };
  const submitted = (await call(target, http, { method: 'POST', url: `${target.origin}/api/v1/runs`, body })) as { runs: { run_id: number }[] };
  const runId = submitted.runs[0]?.run_id;
  if (runId === undefined) throw new Error('the submitted workflow started no run');
  return runId;
}

export async function cancelRun(target: Target, http: HttpSettings, runId: number): Promise<void> {
  await call(target, http, { method: 'POST', url: `${target.origin}/api/v1/runs/${runId}/cancel` });
}
