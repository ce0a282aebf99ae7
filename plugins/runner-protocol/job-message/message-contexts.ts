/**
 * The message's `contextData`: the contexts the server knows before the job runs, with the keys
 * github.com sends (the runner adds `runner`, `env`, `secrets`, `steps` and `job.status` itself):
 *
 * - `github`: the plan's github context, in github.com's key order, plus the two keys only the
 *   server knows: `artifact_cache_size_limit` (GB, "10" as github.com's default) and
 *   `repository_visibility` (from the payload's repository, else `private`);
 * - `inputs` (typed, `{}` when none), `vars`, `needs` (the direct needs only), `strategy`,
 *   `matrix` (null without a matrix);
 * - `job`: `check_run_id` (the job's row id: there are no check runs here) and the identity of
 *   the file defining the job (`workflow_ref`, `workflow_sha`, `workflow_repository`,
 *   `workflow_file_path`: the called file's for a job of a called workflow).
 */
import { encodeContextData, type JsonObject, type JsonValue } from '../../../core/protocol/index.js';
import {
  contextDataOf,
  type ExpressionObject,
  type ExpressionValue,
  type GithubContext,
  type NeedsContext,
} from '../../../core/workflow/index.js';
import type { JobPlan } from './types.js';

/** The github context keys in the order github.com sends them. */
export const GITHUB_CONTEXT_KEYS = [
  'ref',
  'sha',
  'repository',
  'repository_owner',
  'repository_owner_id',
  'repositoryUrl',
  'run_id',
  'run_number',
  'retention_days',
  'run_attempt',
  'artifact_cache_size_limit',
  'repository_visibility',
  'actor_id',
  'actor',
  'workflow',
  'head_ref',
  'base_ref',
  'event_name',
  'server_url',
  'api_url',
  'graphql_url',
  'ref_name',
  'ref_protected',
  'ref_type',
  'secret_source',
  'event',
  'workflow_ref',
  'workflow_sha',
  'repository_id',
  'triggering_actor',
] as const;

const DEFAULT_ARTIFACT_CACHE_SIZE_LIMIT_GB = '10';

export interface ContextInput {
  readonly plan: JobPlan;
  readonly needs: NeedsContext;
  readonly checkRunId: number;
  /** The job's `vars`; default the plan's (the run's). */
  readonly vars?: Readonly<Record<string, string>>;
}

/** Each context encoded as github.com writes PipelineContextData. */
export function buildContextData(input: ContextInput): JsonObject {
  const { job, instance, source } = input.plan;
  const contexts: Record<string, ExpressionValue> = {
    github: githubContext(job.scope.github),
    inputs: job.scope.inputs ?? {},
    job: {
      check_run_id: input.checkRunId,
      workflow_ref: `${source.repository}/${source.path}@${source.ref}`,
      workflow_sha: source.sha,
      workflow_repository: source.repository,
      workflow_file_path: source.path,
    },
    matrix: instance.matrix,
    needs: directNeeds(job.needs, input.needs),
    strategy: instance.strategy,
    vars: input.vars ?? job.scope.vars,
  };
  const result: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(contexts)) {
    result[name] = encodeContextData(contextDataOf(value), { style: 'github' });
  }
  return result;
}

function githubContext(github: GithubContext): ExpressionObject {
  const known: Record<string, ExpressionValue | undefined> = {
    ...github,
    artifact_cache_size_limit: DEFAULT_ARTIFACT_CACHE_SIZE_LIMIT_GB,
    repository_visibility: repositoryVisibility(github.event),
  };
  const result: Record<string, ExpressionValue> = {};
  for (const key of GITHUB_CONTEXT_KEYS) {
    const value = known[key];
    if (value !== undefined) result[key] = value;
  }
  // Anything the model gains later still reaches the runner, after github.com's keys.
  for (const [key, value] of Object.entries(known)) {
    if (value !== undefined && !(key in result)) result[key] = value;
  }
  return result;
}

/** `github.repository_visibility`: the payload repository's `visibility`, else `private` unless it says `private: false`. */
export function repositoryVisibility(event: ExpressionObject): string {
  const repository = event['repository'];
  if (typeof repository !== 'object' || repository === null || Array.isArray(repository)) return 'private';
  const declared = (repository as ExpressionObject)['visibility'];
  if (typeof declared === 'string' && declared !== '') return declared;
  return (repository as ExpressionObject)['private'] === false ? 'public' : 'private';
}

function directNeeds(keys: readonly string[], all: NeedsContext): ExpressionObject {
  const result: Record<string, ExpressionValue> = {};
  for (const key of keys) {
    const entry = all[key];
    if (entry !== undefined) result[key] = entry;
  }
  return result;
}
