/**
 * Environment variables the runner derives for step processes (RUNNER-PROTOCOL.md §5.1):
 * `GITHUB_<NAME>` for the allow-listed members of the `github` context (GitHubContext.cs; the
 * file-command paths among them), `RUNNER_<NAME>` for the `runner` context, the OIDC pair when
 * the job may request an id token, `ACTIONS_ORCHESTRATION_ID` behind its feature flag; and, for
 * JavaScript and container actions only, the Actions runtime variables.
 */
import type { ExpressionValue } from '../../core/workflow/index.js';
import type { JobMessage } from './job-message/index.js';
import { variable, variableFlag } from './job-message/index.js';

const GITHUB_ALLOWLIST = new Set([
  'action_path',
  'action_ref',
  'action_repository',
  'action',
  'actor',
  'actor_id',
  'api_url',
  'artifacts',
  'artifacts_list',
  'base_ref',
  'env',
  'event_name',
  'event_path',
  'graphql_url',
  'head_ref',
  'job',
  'output',
  'path',
  'ref_name',
  'ref_protected',
  'ref_type',
  'ref',
  'repository',
  'repository_id',
  'repository_owner',
  'repository_owner_id',
  'retention_days',
  'run_attempt',
  'run_id',
  'run_number',
  'server_url',
  'sha',
  'state',
  'step_summary',
  'triggering_actor',
  'workflow',
  'workflow_ref',
  'workflow_sha',
  'workspace',
]);

function accessToken(message: JobMessage): string {
  return message.systemConnection.authorization?.parameters['AccessToken'] ?? '';
}

function data(message: JobMessage, key: string): string {
  return message.systemConnection.data[key] ?? '';
}

/** `GITHUB_*`, `RUNNER_*`, OIDC and orchestration id: given to every step. */
export function runtimeEnvironment(
  github: Readonly<Record<string, ExpressionValue>>,
  runner: Readonly<Record<string, ExpressionValue>>,
  message: JobMessage,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(github)) {
    if (!GITHUB_ALLOWLIST.has(key.toLowerCase())) continue;
    if (typeof value === 'string') env[`GITHUB_${key.toUpperCase()}`] = value;
    else if (typeof value === 'boolean') env[`GITHUB_${key.toUpperCase()}`] = value ? 'true' : 'false';
  }
  for (const [key, value] of Object.entries(runner)) if (typeof value === 'string') env[`RUNNER_${key.toUpperCase()}`] = value;
  const idTokenUrl = data(message, 'GenerateIdTokenUrl');
  if (idTokenUrl !== '') {
    env['ACTIONS_ID_TOKEN_REQUEST_URL'] = idTokenUrl;
    env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'] = accessToken(message);
  }
  const orchestrationId = variable(message, 'system.orchestrationId')?.value ?? '';
  if (variableFlag(message, 'actions_set_orchestration_id_env_for_actions') === true && orchestrationId !== '') {
    env['ACTIONS_ORCHESTRATION_ID'] = orchestrationId;
  }
  return env;
}

/** The Actions runtime (NodeScriptActionHandler): JavaScript and container actions only. */
export function actionsRuntimeEnvironment(message: JobMessage): Record<string, string> {
  const env: Record<string, string> = {
    ACTIONS_RUNTIME_URL: data(message, 'PipelinesServiceUrl') || message.systemConnection.url,
    ACTIONS_RUNTIME_TOKEN: accessToken(message),
  };
  const cache = data(message, 'CacheServerUrl');
  if (cache !== '') env['ACTIONS_CACHE_URL'] = cache;
  const results = data(message, 'ResultsServiceUrl');
  if (results !== '') env['ACTIONS_RESULTS_URL'] = results;
  const idTokenUrl = data(message, 'GenerateIdTokenUrl');
  if (idTokenUrl !== '') {
    env['ACTIONS_ID_TOKEN_REQUEST_URL'] = idTokenUrl;
    env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'] = accessToken(message);
  }
  if (variableFlag(message, 'actions_uses_cache_service_v2') === true) env['ACTIONS_CACHE_SERVICE_V2'] = 'True';
  const cacheMode = variable(message, 'actions_cache_mode')?.value ?? '';
  if (cacheMode !== '') env['ACTIONS_CACHE_MODE'] = cacheMode;
  const orchestrationId = variable(message, 'system.orchestrationId')?.value ?? '';
  if (variableFlag(message, 'actions_set_orchestration_id_env_for_actions') === true && orchestrationId !== '') {
    env['ACTIONS_ORCHESTRATION_ID'] = orchestrationId;
  }
  return env;
}
