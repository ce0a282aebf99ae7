import { buildGithubContext, evaluateJobIf, type ExpressionObject } from '../../workflow/index.js';
import type { RunRecord } from '../model/records.js';
import type { IfEvaluation } from './decide.js';

/** The contexts a job-level `if:` may read: github, needs, inputs, vars. */
export function jobIfContexts(run: RunRecord, needs: IfEvaluation['needs'], serverUrl: string): Record<string, unknown> {
  const payload = (run.payload !== null && typeof run.payload === 'object' && !Array.isArray(run.payload) ? run.payload : {}) as ExpressionObject;
  const github = buildGithubContext({
    event: { name: run.event, payload },
    ref: run.ref,
    sha: run.sha,
    repository: { fullName: run.repository, id: 0, ownerId: 0 },
    actor: { login: run.actor, id: 0 },
    run: { id: run.id, number: run.runNumber, attempt: run.runAttempt },
    workflow: { name: run.workflowName, path: run.workflowPath, sha: run.sha },
    server: { serverUrl },
  });
  const inputs = (payload['inputs'] !== null && typeof payload['inputs'] === 'object' ? payload['inputs'] : {}) as Record<string, unknown>;
  return { github, needs, inputs, vars: run.vars };
}

export function createIfEvaluator(serverUrl: () => string): (input: IfEvaluation) => boolean {
  return ({ job, run, needs, ancestorResults, cancelled }) =>
    evaluateJobIf(job.ifCondition ?? undefined, jobIfContexts(run, needs, serverUrl()) as never, { needs: ancestorResults, cancelled });
}
