/**
 * The message's `variables`: github.com's feature flags (feature-flags.ts), the `system.*`
 * variables the runner reads, the automatic token (`github_token`, `system.github.token`, both
 * secret), and the job's secrets (secret variables become the `secrets` context on the runner).
 *
 * Values that mean something only on github.com get local ones (spec rule 1):
 * - `system.github.results_endpoint` is this server's results service in `RunnerJobRequest`
 *   mode; empty in legacy mode, where a set value would make the runner upload every log and
 *   step twice (to the job server and to results);
 * - `system.github.launch_endpoint` is the launch service origin (only read in run-service mode);
 * - `system.github.results_upload_with_sdk` is false: our signed URLs are not Azure blobs;
 * - `system.runnerEnvironment` is `self-hosted`, `system.runnerGroupName` the runner's group;
 * - `actions_cache_mode` is the job's cache mode (cache-mode.ts), which the cache service enforces.
 */
import type { JsonObject, JsonValue } from '../../../core/protocol/index.js';
import type { Permissions } from '../../../core/workflow/index.js';
import { cacheModeFor } from './cache-mode.js';
import { FEATURE_FLAGS } from './feature-flags.js';
import { DEFAULT_TOKEN_PERMISSIONS } from './token-ceiling.js';
import type { JobMessageType, JobPlan, VariableValue } from './types.js';

export interface VariablesInput {
  readonly plan: JobPlan;
  readonly messageType: JobMessageType;
  readonly githubToken: string;
  readonly orchestrationId: string;
  readonly runnerGroupName: string;
  readonly resultsUrl: string;
  readonly launchUrl: string;
  readonly secrets: Readonly<Record<string, string>>;
  readonly extra: Readonly<Record<string, string | VariableValue>>;
}

const LOW_DISK_SPACE_THRESHOLD_MB = '100';
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function buildVariables(input: VariablesInput): JsonObject {
  const { plan, messageType } = input;
  const variables = new Map<string, VariableValue>();
  const set = (name: string, value: string | VariableValue) => variables.set(name, typeof value === 'string' ? { value } : value);

  for (const [name, value] of Object.entries(FEATURE_FLAGS)) set(name, value);
  set('actions_cache_mode', cacheModeFor(plan.workflow.event));
  set('github_token', { value: input.githubToken, isSecret: true });
  set('system.from_run_service', String(messageType === 'RunnerJobRequest'));
  set('system.github.job', plan.job.key);
  set('system.github.launch_endpoint', input.launchUrl);
  set('system.github.results_endpoint', messageType === 'RunnerJobRequest' ? input.resultsUrl : '');
  set('system.github.results_upload_with_sdk', 'false');
  set('system.github.token', { value: input.githubToken, isSecret: true });
  set('system.github.token.permissions', tokenPermissions(plan.instance.permissions));
  set('system.orchestrationId', input.orchestrationId);
  set('system.phaseDisplayName', plan.instance.name);
  set('system.runner.lowdiskspacethreshold', LOW_DISK_SPACE_THRESHOLD_MB);
  set('system.runnerEnvironment', 'self-hosted');
  set('system.runnerGroupName', input.runnerGroupName);
  if (plan.source.called) {
    set('system.workflowFileFullPath', `${plan.source.repository}/${plan.source.path}`);
    set('system.workflowFileRef', plan.source.ref);
    set('system.workflowFileSha', plan.source.sha);
  }
  for (const [name, value] of Object.entries(input.extra)) set(name, value);
  addSecrets(variables, input.secrets);

  const result: Record<string, JsonValue> = {};
  for (const name of [...variables.keys()].sort(ordinal)) {
    const variable = variables.get(name);
    if (variable === undefined) continue;
    result[name] = variable.isSecret === true ? { value: variable.value, isSecret: true } : { value: variable.value };
  }
  return result;
}

/**
 * Secrets become secret variables under their own names. The runner looks variables up ignoring
 * case, so a secret that would shadow (or be shadowed by) another variable is refused rather
 * than silently changing what `secrets.<name>` or a runner switch reads.
 */
function addSecrets(variables: Map<string, VariableValue>, secrets: Readonly<Record<string, string>>): void {
  const taken = new Set([...variables.keys()].map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(secrets)) {
    if (!SECRET_NAME.test(name)) throw new TypeError(`'${name}' is not a valid secret name (letters, digits and _; not starting with a digit)`);
    if (taken.has(name.toLowerCase())) throw new TypeError(`the secret '${name}' has the name of a job variable; rename it`);
    taken.add(name.toLowerCase());
    variables.set(name, { value, isSecret: true });
  }
}

/**
 * `{"Contents":"read","Metadata":"read"}`: scopes in PascalCase, alphabetical, `none` left out,
 * and `Metadata: read`, which every GITHUB_TOKEN has. Printed by the runner in "Set up job".
 */
export function tokenPermissions(permissions: Permissions | undefined): string {
  const levels: Record<string, string> = { Metadata: 'read' };
  for (const [scope, level] of Object.entries(permissions ?? DEFAULT_TOKEN_PERMISSIONS)) {
    if (level === 'none') continue;
    const name = scope
      .split('-')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('');
    levels[name] = level;
  }
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(levels).sort(ordinal)) sorted[name] = levels[name] ?? 'none';
  return JSON.stringify(sorted);
}

function ordinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
