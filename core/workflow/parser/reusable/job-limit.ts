/**
 * Fix "max-job-limit": GitHub caps the jobs of a workflow, reusable workflow jobs and the jobs of
 * the workflows they call included (`The workflow may not contain more than N jobs`). The
 * TypeScript parser has no cap. 0 means no limit.
 */
import type { ErrorCollector } from '../error-collector.js';
import type { ConvertedWorkflowJob } from '../model-types.js';
import { isReusableJob } from '../model-types.js';

export function checkJobLimit(collector: ErrorCollector, workflow: { readonly jobs: readonly ConvertedWorkflowJob[] }, max: number): void {
  if (max > 0 && countJobs(workflow.jobs) > max) {
    collector.addUnplaced(`The workflow may not contain more than ${max} jobs`);
  }
}

function countJobs(jobs: readonly ConvertedWorkflowJob[]): number {
  let count = 0;
  for (const job of jobs) count += 1 + (isReusableJob(job) ? countJobs(job.jobs ?? []) : 0);
  return count;
}
