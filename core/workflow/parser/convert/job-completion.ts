/**
 * Fix "job-and-step-members": GitHub's converted jobs carry `continue-on-error`,
 * `timeout-minutes`, `cancel-timeout-minutes`, `permissions` and `defaults`, and its steps
 * `timeout-minutes`, `working-directory`, `shell` and `with`; the TypeScript converter drops
 * them (the runner needs every one). A step's `continue-on-error` becomes its token, as GitHub
 * keeps it, instead of the converter's bare boolean. We read them back from each job's mapping, matching the
 * converted job by its id token, and run the checks GitHub makes on jobs and steps that the
 * TypeScript converter skips (step-validation.ts, matrix-validation.ts, concurrency-queue.ts).
 */
import { isMapping, isScalar, isSequence } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { MappingToken, TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ConvertedJob, ConvertedStep, ConvertedWorkflowJob } from '../model-types.js';
import { isReusableJob } from '../model-types.js';
import type { ParseContext } from '../parse-context.js';
import { permissionsFromToken } from '../permissions/permissions.js';
import { validateConcurrencyQueue } from './concurrency-queue.js';
import { validateMatrix } from './matrix-validation.js';
import { validateSteps } from './step-validation.js';

/** Completes converted jobs from the `jobs:` mapping they were converted from. */
export function completeJobs(context: ParseContext, jobsToken: TemplateToken, jobs: readonly ConvertedWorkflowJob[]): void {
  if (!isMapping(jobsToken)) return;
  const definitions = new Map<TemplateToken, TemplateToken>();
  for (const pair of jobsToken) definitions.set(pair.key, pair.value);
  for (const job of jobs) {
    const definition = definitions.get(job.id);
    if (definition === undefined || !isMapping(definition)) continue;
    validateConcurrencyQueue(context, definition.find('concurrency'));
    if (isReusableJob(job)) {
      const permissions = definition.find('permissions');
      if (permissions !== undefined) job.permissions = permissionsFromToken(permissions);
      validateJobStrategy(context, definition);
    } else {
      completeJob(context, job, definition);
    }
  }
}

function completeJob(context: ParseContext, job: ConvertedJob, definition: MappingToken): void {
  for (const pair of definition) {
    const value = pair.value;
    switch (pair.key.toString()) {
      case 'continue-on-error':
      case 'timeout-minutes':
      case 'cancel-timeout-minutes':
        if (isScalar(value)) job[pair.key.toString() as 'timeout-minutes'] = value;
        break;
      case 'permissions':
        job.permissions = permissionsFromToken(value);
        break;
      case 'defaults':
        job.defaults = value;
        break;
      case 'strategy':
        validateMatrix(context, value);
        break;
      case 'steps':
        completeSteps(value, job.steps);
        validateSteps(context, value);
        break;
    }
  }
}

function validateJobStrategy(context: ParseContext, definition: MappingToken): void {
  const strategy = definition.find('strategy');
  if (strategy !== undefined) validateMatrix(context, strategy);
}

/** Steps convert one to one unless one failed, in which case the workflow is in error anyway. */
function completeSteps(stepsToken: TemplateToken, steps: ConvertedStep[]): void {
  if (!isSequence(stepsToken) || stepsToken.count !== steps.length) return;
  steps.forEach((step, index) => {
    const definition = stepsToken.get(index);
    if (!isMapping(definition)) return;
    for (const pair of definition) {
      const key = pair.key.toString();
      if (key === 'with') step.with = pair.value;
      else if ((key === 'timeout-minutes' || key === 'working-directory' || key === 'shell') && isScalar(pair.value)) {
        step[key] = pair.value;
      } else if (key === 'continue-on-error' && isScalar(pair.value)) {
        // The converter keeps a literal as a bare boolean; the token keeps its source position.
        step['continue-on-error'] = pair.value;
      }
    }
  });
}
