import type { JobRecord, RunRecord } from '../model/records.js';
import { deploymentPatternMatches } from './deployment-patterns.js';

/**
 * An environment's protection rules (`[environment_rules."owner/repo".<environment>]`), as the
 * operator file gives them: name patterns for the refs that may deploy, a wait timer, and
 * whether the one local reviewer (the system bearer) must approve.
 */
export interface EnvironmentRule {
  readonly deployment_branches?: readonly string[];
  readonly deployment_tags?: readonly string[];
  readonly wait_timer_minutes?: number;
  readonly required_reviewers?: number;
}

/** The rule of a repository's environment, if the operator set one. */
export type EnvironmentRules = (repository: string, environment: string) => EnvironmentRule | undefined;

/** What the gate says about a ready job of an environment. */
export type GateVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'fail'; readonly reason: string }
  /** The wait timer starts now and ends at `until`. */
  | { readonly kind: 'start_timer'; readonly until: number }
  /** The wait timer has not ended yet. */
  | { readonly kind: 'timer_running' }
  | { readonly kind: 'approval' };

/** Job reasons (`pending`) while an environment holds the job. */
export const WAIT_TIMER_REASON = 'environment_wait_timer';
export const APPROVAL_REASON = 'environment_approval';

/**
 * GitHub's order: the deployment branch/tag rule first (a ref it does not allow fails the job),
 * then the wait timer, then the reviewers. Pure; decided again at every pass until the job goes.
 */
export function environmentGate(run: RunRecord, job: JobRecord, rule: EnvironmentRule | undefined, now: number): GateVerdict {
  if (job.environment === null || rule === undefined) return { kind: 'pass' };
  const refProblem = refNotAllowed(run.ref, job.environment.name, rule);
  if (refProblem !== undefined) return { kind: 'fail', reason: refProblem };
  const minutes = rule.wait_timer_minutes ?? 0;
  if (minutes > 0) {
    if (job.environmentWaitUntil === null) return { kind: 'start_timer', until: now + minutes * 60_000 };
    if (job.environmentWaitUntil > now) return { kind: 'timer_running' };
  }
  if ((rule.required_reviewers ?? 0) > 0 && job.environmentApproval === null) return { kind: 'approval' };
  return { kind: 'pass' };
}

/**
 * Deployment branches and tags: with neither list set, every ref may deploy. With either set,
 * the run's ref must match a pattern of its kind (a tag one of `deployment_tags`, anything else
 * one of `deployment_branches`), else the job fails with GitHub's message.
 */
export function refNotAllowed(ref: string, environment: string, rule: EnvironmentRule): string | undefined {
  const branches = rule.deployment_branches;
  const tags = rule.deployment_tags;
  if (branches === undefined && tags === undefined) return undefined;
  if (ref.startsWith('refs/tags/')) {
    const tag = ref.slice('refs/tags/'.length);
    if ((tags ?? []).some((pattern) => deploymentPatternMatches(pattern, tag))) return undefined;
    return `Tag "${tag}" is not allowed to deploy to ${environment} due to environment protection rules.`;
  }
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  if ((branches ?? []).some((pattern) => deploymentPatternMatches(pattern, branch))) return undefined;
  return `Branch "${branch}" is not allowed to deploy to ${environment} due to environment protection rules.`;
}

/** The text people read while an environment holds a job (the `job_status` event's reason). */
export function waitingText(job: JobRecord, until: number | null): string {
  const name = job.environment?.name ?? 'its environment';
  if (until !== null) return `waiting for the wait timer of environment ${name} (until ${new Date(until).toISOString()})`;
  return `waiting for approval: environment ${name} requires a review (svc approve ${job.runId} --job ${job.id})`;
}

/** The text for a job an environment holds now (its `reason` key in words), else undefined. */
export function environmentHoldText(job: JobRecord): string | undefined {
  if (job.status !== 'pending') return undefined;
  if (job.reason === WAIT_TIMER_REASON) return waitingText(job, job.environmentWaitUntil);
  if (job.reason === APPROVAL_REASON) return waitingText(job, null);
  return undefined;
}

/**
 * Looks a repository's environment rule up in the operator file's tables. Repository and environment
 * names are compared without regard to case, as GitHub does.
 */
export function environmentRulesFrom(table: Readonly<Record<string, Readonly<Record<string, EnvironmentRule>>>> | undefined): EnvironmentRules {
  return (repository, environment) => {
    const owner = Object.keys(table ?? {}).find((name) => name.toLowerCase() === repository.toLowerCase());
    const environments = owner === undefined ? undefined : table?.[owner];
    if (environments === undefined) return undefined;
    const wanted = environment.toLowerCase();
    const key = Object.keys(environments).find((name) => name.toLowerCase() === wanted);
    return key === undefined ? undefined : environments[key];
  };
}
