// runner/client: the HTTP clients of the listener (registration, connectionData, pools/agents,
// OAuth, legacy sessions/messages/job requests, broker, run service).
export { randomBackoff, sleep, isAbort } from './backoff.js';
export { HttpClient, DEFAULT_HTTP_TIMEOUT_MS } from './http-client.js';
export type { HttpAnswer, HttpRequest } from './http-client.js';
export { RunnerHttpError, RunnerNetworkError, RunnerProtocolError, causeText, isRecord } from './http-error.js';
export { runnerIdentity } from './runner-identity.js';
export type { RunnerIdentity } from './runner-identity.js';
export { schemaProblems, wireValidator } from './wire-schema.js';
export type { Validator } from './wire-schema.js';
export { LOCATIONS, expandRoute, rawUrl, vssUrl } from './vss-routes.js';
export type { LocationId, RouteValues } from './vss-routes.js';
export { VssConnection, unwrapList } from './vss-connection.js';
export type { ResourceLocation, VssAuth, VssRequest } from './vss-connection.js';
export { OAuthTokenError, RunnerTokenSource, clientAssertion } from './oauth-token.js';
export type { OAuthClient } from './oauth-token.js';
export { isHostedServer, registrationEndpoint, requestTenantCredential } from './runner-registration.js';
export type { RunnerEvent, TenantCredential } from './runner-registration.js';
export { AgentsClient, agentFlag, agentProperty } from './agents-client.js';
export type { AgentLabel, AgentPool, AgentUpdate, TaskAgent } from './agents-client.js';
export { LEGACY_POLL_TIMEOUT_MS, LegacyQueueClient } from './legacy-queue-client.js';
export type { PollStatus } from './legacy-queue-client.js';
export { BROKER_POLL_TIMEOUT_MS, BrokerClient, RawClient } from './broker-client.js';
export { RunServiceClient } from './run-service-client.js';
export { RunnerAdminClient, apiBase, entityBase, xmlPublicKey } from './runner-admin-client.js';
export type { RegisteredRunner, RunnerAdminRegistration, RunnerGroup } from './runner-admin-client.js';
