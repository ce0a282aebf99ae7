/**
 * The job message (`AgentJobRequestMessage`) for an assignment: `planFor` plans the job again
 * from the run's files, `buildJobMessage` turns the plan into the JSON the official runner reads.
 * Derived ids (`planIdFor`, `jobIdFor`, `stepIdFor`) are exported so the routes that receive the
 * runner's reports can recognise them.
 */
export { buildJobMessage } from './build-job-message.js';
export { planFor, type PlanForOptions } from './plan-for.js';
export { needsFromJobs } from './needs-context.js';
export { jobIdFor, planIdFor, stepIdFor, SVC_ID_NAMESPACE, uuidV5 } from './message-ids.js';
export { DEFAULT_JOB_NAME, jobNames, orchestrationId } from './job-names.js';
export { FEATURE_FLAGS } from './feature-flags.js';
export { GITHUB_CONTEXT_KEYS, repositoryVisibility } from './message-contexts.js';
export { cacheModeFor } from './cache-mode.js';
export { jobServer, LOOPBACK_JOB_HOST, passesToolkitHostGate } from './job-server.js';
export { ID_TOKEN_PATH } from './system-connection.js';
export { JOB_TOKEN_SLOT, withJobToken } from './job-token-slot.js';
export { jobSecrets, secretReadsOf, secretsReadBy, type SecretReads } from './job-secrets.js';
export { jobSecretsLabel, SEALED_SECRETS_MEMBER, secretSlots, takeSealedSecrets, withSecretValues, type SlottedSecrets } from './secret-slots.js';
export { tokenPermissions } from './message-variables.js';
export { applyTokenCeiling, DEFAULT_TOKEN_PERMISSIONS, describeCapped, type CappedScope, type TokenCeiling } from './token-ceiling.js';
export type {
  JobMessageIds,
  JobMessageInput,
  JobMessageType,
  JobPlan,
  ServerUrls,
  VariableValue,
  WorkflowSource,
} from './types.js';
