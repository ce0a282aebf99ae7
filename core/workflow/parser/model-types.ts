/**
 * The converted workflow: the object `convertWorkflowTemplate` returns, completed in place with
 * the members GitHub's own parser (C#) produces and the TypeScript converter leaves out. Member
 * names are the official ones; serialize-template.ts writes them in the official order.
 */
import type {
  ActionStep,
  EventsConfig,
  Job,
  ReusableWorkflowJob,
  RunStep,
  Step,
} from '@actions/workflow-parser/model/workflow-template';
import type { ScalarToken, TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { Permissions } from './permissions/permissions.js';

export type { Permissions };

/** Step members the TypeScript converter drops. */
export interface StepExtras {
  'timeout-minutes'?: ScalarToken;
  'working-directory'?: ScalarToken;
  shell?: ScalarToken;
  with?: TemplateToken;
}

export type ConvertedRunStep = RunStep & StepExtras;
export type ConvertedActionStep = ActionStep & StepExtras;
export type ConvertedStep = Step & StepExtras;

/** Job members the TypeScript converter drops. */
export interface JobExtras {
  'continue-on-error'?: ScalarToken;
  'timeout-minutes'?: ScalarToken;
  'cancel-timeout-minutes'?: ScalarToken;
  permissions?: Permissions;
  defaults?: TemplateToken;
}

export type ConvertedJob = Omit<Job, 'steps'> & JobExtras & { steps: ConvertedStep[] };

/** A reusable workflow job, with the called workflow's members it takes over. */
export type ConvertedReusableWorkflowJob = Omit<ReusableWorkflowJob, 'jobs'> & {
  permissions?: Permissions;
  defaults?: TemplateToken;
  env?: TemplateToken;
  /** The called workflow's own `concurrency:` (the job's `concurrency` is the caller's). */
  'embedded-concurrency'?: TemplateToken;
  jobs?: ConvertedWorkflowJob[];
};

export type ConvertedWorkflowJob = ConvertedJob | ConvertedReusableWorkflowJob;

/** The parser's `WorkflowTemplate` (its `errors` are in the load result instead). */
export interface ConvertedWorkflow {
  /** `on:` as the parser converts it (`{}` without `on:`). */
  events: EventsConfig;
  jobs: ConvertedWorkflowJob[];
  concurrency?: TemplateToken;
  env?: TemplateToken;
  /** `workflow_dispatch` input name → declared type (`string` when not declared). */
  'input-types'?: Record<string, string>;
  permissions?: Permissions;
  defaults?: TemplateToken;
}

export function isReusableJob(job: ConvertedWorkflowJob): job is ConvertedReusableWorkflowJob {
  return job.type === 'reusableWorkflowJob';
}
