/**
 * A called workflow's token tree → the members of the calling job, as GitHub's parser converts it
 * (fix "referenced-workflow-members": the TypeScript converter takes only `on` and `jobs`):
 * `on: workflow_call` definitions and call checks, `jobs` (converted and completed like the
 * entry's), `permissions` (checked against the caller, then inherited by its jobs), `defaults`,
 * `env` and the called workflow's own `concurrency`.
 */
import { convertConcurrency } from '@actions/workflow-parser/model/converter/concurrency';
import { convertJobs } from '@actions/workflow-parser/model/converter/jobs';
import { handleTemplateTokenErrors } from '@actions/workflow-parser/model/converter/handle-errors';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import { validateConcurrencyQueue } from '../convert/concurrency-queue.js';
import { completeJobs } from '../convert/job-completion.js';
import type { ConvertedReusableWorkflowJob, ConvertedWorkflowJob } from '../model-types.js';
import type { ParseContext } from '../parse-context.js';
import { permissionsFromToken } from '../permissions/permissions.js';
import type { PermissionsPolicy } from '../types.js';
import { checkRequestedPermissions } from './permission-check.js';
import type { PermissionCeiling } from './permission-check.js';
import { convertCallTrigger } from './workflow-call.js';

export function convertReferencedWorkflow(
  context: ParseContext,
  root: TemplateToken,
  job: ConvertedReusableWorkflowJob,
  policy: PermissionsPolicy,
  trusted: boolean,
): void {
  if (!isMapping(root)) return;
  const ceiling: PermissionCeiling = { explicit: job.permissions, policy, trusted };
  for (const pair of root) {
    const value = pair.value;
    switch (pair.key.toString()) {
      case 'on':
        handleTemplateTokenErrors(job.ref, context, undefined, () => convertCallTrigger(context, value, job));
        break;
      case 'defaults':
        job.defaults = value;
        break;
      case 'env':
        job.env = value;
        break;
      case 'concurrency':
        handleTemplateTokenErrors(value, context, undefined, () => convertConcurrency(context, value));
        validateConcurrencyQueue(context, value);
        job['embedded-concurrency'] = value;
        break;
      case 'jobs': {
        // The parser's job types are the base of ours; completeJobs adds the rest.
        const jobs = handleTemplateTokenErrors(job.ref, context, [], () => convertJobs(context, value)) as ConvertedWorkflowJob[];
        job.jobs = jobs;
        completeJobs(context, value, jobs);
        break;
      }
      case 'permissions': {
        const requested = permissionsFromToken(value);
        checkRequestedPermissions(context, job, undefined, requested, ceiling);
        job.permissions = requested;
        break;
      }
    }
  }
  for (const nested of job.jobs ?? []) {
    if (nested.permissions !== undefined) checkRequestedPermissions(context, job, nested, nested.permissions, ceiling);
    else if (job.permissions !== undefined) nested.permissions = job.permissions;
  }
}
