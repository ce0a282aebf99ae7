/**
 * `POST {run service}completejob` (§4.8): the conclusion, outputs, step results with their
 * annotations, job-level annotations, the environment URL and the billing owner. Five attempts
 * 5 s apart; a 401, or a run-service body saying 404 (the job is not this token's or is over),
 * stops them.
 */
import type { CompleteJobRequest, RunServiceAnnotation, StepResult } from '../../../core/protocol/index.js';
import { toAnnotation } from '../annotations.js';
import { HttpStatusError, httpSend, type HttpOptions } from '../http.js';
import type { DiagnosticLog, JobCompletion, RecordIssue, TimelineRecord } from '../reporter-types.js';

export interface CompleteJobTarget {
  readonly http: HttpOptions;
  /** The run service's base (the SystemVssConnection URL). */
  readonly url: string;
  readonly planId: string;
  readonly jobId: string;
  readonly billingOwnerId?: string;
  readonly attempts: number;
  readonly retryMs: number;
  readonly diagnostic: DiagnosticLog;
}

function annotations(issues: readonly RecordIssue[]): RunServiceAnnotation[] {
  return issues.flatMap((issue) => toAnnotation(issue) ?? []);
}

/** A step's entry of `stepResults`, from its last record. */
export function stepResultOf(record: TimelineRecord, logLines?: number): StepResult {
  return {
    external_id: record.id,
    number: record.order,
    name: record.name,
    ...(record.stepType === undefined ? {} : { type: record.stepType }),
    status: record.state,
    conclusion: record.result ?? 'succeeded',
    started_at: record.startTime?.toISOString() ?? null,
    completed_at: record.finishTime?.toISOString() ?? null,
    ...(logLines === undefined ? {} : { completed_log_lines: logLines }),
    annotations: annotations(record.issues),
  };
}

export function completeJobBody(
  target: Pick<CompleteJobTarget, 'planId' | 'jobId' | 'billingOwnerId'>,
  completion: JobCompletion,
  steps: readonly StepResult[],
): CompleteJobRequest {
  const outputs: Record<string, { value: string }> = {};
  for (const [name, value] of Object.entries(completion.outputs)) outputs[name] = { value };
  return {
    planId: target.planId,
    jobId: target.jobId,
    conclusion: completion.result,
    outputs,
    stepResults: steps,
    annotations: annotations(completion.jobAnnotations ?? []),
    ...(completion.environment?.url === undefined ? {} : { environmentUrl: completion.environment.url }),
    ...(target.billingOwnerId === undefined || target.billingOwnerId === '' ? {} : { billingOwnerId: target.billingOwnerId }),
  };
}

function stops(error: unknown): boolean {
  if (!(error instanceof HttpStatusError)) return false;
  if (error.status === 401) return true;
  const body = error.json() as { source?: unknown; statusCode?: unknown } | undefined;
  return body?.source === 'actions-run-service' && body.statusCode === 404;
}

export async function sendCompleteJob(target: CompleteJobTarget, body: CompleteJobRequest): Promise<void> {
  const base = target.url.endsWith('/') ? target.url : `${target.url}/`;
  const url = new URL('completejob', base).href;
  let lastError: unknown;
  for (let attempt = 1; attempt <= target.attempts; attempt++) {
    try {
      await httpSend(target.http, { method: 'POST', url, json: body });
      return;
    } catch (error) {
      lastError = error;
      if (stops(error)) break;
      target.diagnostic(`completejob attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (attempt < target.attempts) await new Promise((resolve) => setTimeout(resolve, target.retryMs));
    }
  }
  throw new Error(`the run service was not told the job's result: ${lastError instanceof Error ? lastError.message : String(lastError)}`, { cause: lastError });
}
