// The forge's REST API behind a circuit breaker per forge (core/ports forge.ts): opened by the
// kernel, shared by the remote-repositories backend and the forge plugin.
export { BREAKER_FIRST_INTERVAL_MS, BREAKER_MAX_INTERVAL_MS, BREAKER_PROBE_WINDOW_MS, CircuitBreaker, RATE_LIMIT_MAX_WAIT_MS, RATE_LIMIT_MIN_WAIT_MS, type Admission, type CallOutcome } from './circuit-breaker.js';
export { classifyResponse, rateLimitWaitMs } from './classify.js';
export { createForgeClient, FORGE_API_VERSION, type ForgeClientOptions } from './forge-client.js';
export { createForgeClients, type ForgeClientsOptions } from './forge-clients.js';
