// Runner groups and runners on the wire (pools and agents, §1.4-§1.5, §1.11), and the registry
// that registration and JIT provisioning share.
export { parseAgentBody, parseAgentLabels, MAX_AGENT_NAME, type AgentBody } from './agent-body.js';
export { agentNotFoundError, createAgentRegistry, runnerExistsError, type AgentRegistry, type RegisterInput } from './agent-registry.js';
export { taskAgentPoolWire, taskAgentWire, type FlowSettings } from './agent-wire.js';
export { authenticateCaller, callerOf, requireTenant, type Caller } from './caller.js';
export { registerPoolRoutes, POOLS_PATH } from './pools-routes.js';
export { registerAgentRoutes, type AgentRoutesDeps } from './agents-routes.js';
export { isWireObject, member, type WireObject } from './wire-object.js';
