import type { RuntimeJobContext } from '../../../core/ports/index.js';

/** The `github` context members GitHub's ID tokens carry under the same names. */
const GITHUB_CLAIMS = [
  'ref',
  'sha',
  'repository',
  'repository_id',
  'repository_owner',
  'repository_owner_id',
  'repository_visibility',
  'run_id',
  'run_number',
  'run_attempt',
  'actor',
  'actor_id',
  'triggering_actor',
  'workflow',
  'workflow_ref',
  'workflow_sha',
  'head_ref',
  'base_ref',
  'event_name',
  'ref_type',
  'ref_protected',
] as const;

/** Every claim a token may carry (the discovery document's `claims_supported`). */
export const CLAIMS_SUPPORTED = [
  'sub',
  'aud',
  'iss',
  'exp',
  'iat',
  'nbf',
  'jti',
  ...GITHUB_CLAIMS,
  'environment',
  'job_workflow_ref',
  'job_workflow_sha',
  'runner_environment',
] as const;

/**
 * GitHub's subject (OpenID Connect reference, "Example subject claims"): the environment when the
 * job has one, else `pull_request` for pull request events, else the ref.
 */
export function subjectOf(context: RuntimeJobContext): string {
  const repo = `repo:${context.repository}`;
  if (context.environment !== undefined) return `${repo}:environment:${context.environment}`;
  if (context.eventName === 'pull_request') return `${repo}:pull_request`;
  return `${repo}:ref:${context.ref}`;
}

/** The default audience: the URL of the repository owner, on the server jobs see. */
export function defaultAudience(context: RuntimeJobContext): string {
  const server = (context.github['server_url'] ?? '').replace(/\/+$/, '');
  return `${server}/${context.repository.split('/')[0] ?? ''}`;
}

/** The custom claims of a job's ID token (the registered ones are set by the signer). */
export function jobClaims(context: RuntimeJobContext): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const name of GITHUB_CLAIMS) {
    const value = context.github[name];
    if (value !== undefined) claims[name] = value;
  }
  claims['repository'] = context.repository;
  claims['ref'] = context.ref;
  claims['sha'] = context.sha;
  claims['event_name'] = context.eventName;
  if (context.environment !== undefined) claims['environment'] = context.environment;
  const file = context.jobWorkflow;
  claims['job_workflow_ref'] = `${file.repository}/${file.path}@${file.ref}`;
  claims['job_workflow_sha'] = file.sha;
  claims['runner_environment'] = context.runnerEnvironment;
  return claims;
}
