import type { Submitted } from '../../core/engine/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/kernel/index.js';
import type { RunRequest } from './run-request.js';

export interface SubmittedRunView {
  readonly run_id: number;
  readonly workflow: string;
  readonly status: string;
  readonly url: string;
  readonly warnings: readonly string[];
}

/** The 201 answer of `POST /runs`. */
export interface SubmittedView {
  readonly runs: readonly SubmittedRunView[];
  /** Empty: a request names one file, and a file that does not run is an error (below). */
  readonly not_triggered: readonly { readonly workflow: string; readonly reason: string }[];
  readonly invalid: readonly { readonly workflow: string; readonly errors: readonly string[]; readonly run_id: number | null }[];
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/**
 * What the engine made of the one workflow file a user asked to run. A created run is the
 * answer; a file the event does not trigger, that is not a valid workflow, or whose declared
 * inputs the request's do not fit, is a 422 saying why, because someone running one file
 * expects to be told rather than handed an empty list; one a policy (execution protection)
 * denies is 403 `run_denied`.
 */
export function submissionOutcome(request: RunRequest, results: readonly Submitted[], runUrl: (runId: number) => string): SubmittedView {
  const runs: SubmittedRunView[] = [];
  for (const result of results) {
    switch (result.outcome) {
      case 'created':
        runs.push({ run_id: result.run.id, workflow: result.path, status: result.run.status, url: runUrl(result.run.id), warnings: result.warnings });
        break;
      case 'not_triggered':
        throw new ValidationError(`the ${request.event} event does not trigger ${result.path}: ${result.reason}${hint(request)}`, {
          code: 'not_triggered',
          details: { workflow: result.path, event: request.event, ref: request.ref, reason: result.reason },
        });
      case 'unknown_job':
        throw new NotFoundError(`${result.path} has no job '${result.job}' (jobs: ${result.jobs.join(', ')})`, {
          code: 'job_not_found',
          details: { workflow: result.path, job: result.job, jobs: result.jobs },
        });
      case 'denied':
        throw new ForbiddenError(`${result.path} was not run: the ${result.policy} policy denies it (${result.reason})`, {
          code: 'run_denied',
          details: { workflow: result.path, policy: result.policy, reason: result.reason },
        });
      case 'invalid_inputs':
        // GitHub's dispatch API answers 422 with the problem alone ("Unexpected inputs provided: [...]").
        throw new ValidationError(`the workflow_dispatch inputs do not fit ${result.path}: ${result.errors.join('; ')}`, {
          code: 'invalid_inputs',
          details: { workflow: result.path, errors: result.errors },
        });
      case 'invalid': {
        const runId = result.run?.id ?? null;
        const recorded = runId === null ? '' : ` (recorded as failed run ${runId})`;
        throw new ValidationError(`${result.path} is not a valid workflow${recorded}:\n${result.errors.join('\n')}`, {
          code: 'invalid_workflow',
          details: { workflow: result.path, errors: result.errors, run_id: runId, ...(runId === null ? {} : { url: runUrl(runId) }) },
        });
      }
    }
  }
  return { runs, not_triggered: [], invalid: [] };
}

/** A local pull request has only the fields the client sent; say where the missing ones go. */
function hint(request: RunRequest): string {
  const payload = request.payload ?? {};
  if (!PULL_REQUEST_EVENTS.has(request.event) || (payload['action'] !== undefined && payload['pull_request'] !== undefined)) return '';
  return `; a local ${request.event} event carries no pull-request fields: send the ones the workflow's filters read in payload (e.g. {"action": "opened", "pull_request": {"base": {"ref": "main"}}})`;
}
