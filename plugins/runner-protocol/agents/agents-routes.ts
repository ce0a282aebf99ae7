import type { FastifyInstance, FastifyRequest } from 'fastify';
import { POOL_ID_SCHEMA, type AgentsStore } from '../store/index.js';
import { tokenUrl, type RunnerUrls } from '../urls/index.js';
import { wrappedList } from '../vss/index.js';
import { parseAgentBody } from './agent-body.js';
import { agentNotFoundError, type AgentRegistry } from './agent-registry.js';
import { taskAgentWire, type FlowSettings } from './agent-wire.js';
import { requireTenant } from './caller.js';
import { POOLS_PATH } from './pools-routes.js';

export interface AgentRoutesDeps {
  readonly agents: AgentsStore;
  readonly registry: AgentRegistry;
  readonly urls: RunnerUrls;
  readonly flow: FlowSettings;
}

type PoolParams = { poolId: number };
type AgentParams = { poolId: number; agentId: number };

const poolParams = { type: 'object', required: ['poolId'], properties: { poolId: POOL_ID_SCHEMA } } as const;
const agentParams = {
  type: 'object',
  required: ['poolId', 'agentId'],
  properties: { poolId: POOL_ID_SCHEMA, agentId: { type: 'integer', minimum: 1 } },
} as const;
const listQuery = { type: 'object', properties: { agentName: { type: 'string' } } } as const;

/**
 * The agents resource (`_apis/distributedtask/pools/{poolId}/agents/{agentId}`, §1.5): lookup by
 * name (pool 0 searches every group), create, `--replace`, and removal (§1.11; the pool in the
 * path is ignored there, as the runner sends 0).
 */
export function registerAgentRoutes(app: FastifyInstance, deps: AgentRoutesDeps): void {
  const wire = (request: FastifyRequest) => {
    const base = deps.urls.base(request);
    return { base, authorizationUrl: tokenUrl(base) };
  };

  app.get<{ Params: PoolParams; Querystring: { agentName?: string } }>(
    `${POOLS_PATH}/:poolId/agents`,
    { schema: { params: poolParams, querystring: listQuery } },
    async (request) => {
      const { poolId } = request.params;
      const { agentName } = request.query;
      const found = agentName === undefined || agentName === '' ? await deps.agents.list(poolId) : await deps.agents.findByName(agentName, poolId);
      const { base } = wire(request);
      return wrappedList(found.map((agent) => taskAgentWire(agent, base, deps.flow)));
    },
  );

  app.get<{ Params: AgentParams }>(`${POOLS_PATH}/:poolId/agents/:agentId`, { schema: { params: agentParams } }, async (request) => {
    const agent = await deps.agents.get(request.params.agentId);
    if (!agent) throw agentNotFoundError(request.params.agentId);
    return taskAgentWire(agent, wire(request).base, deps.flow);
  });

  app.post<{ Params: PoolParams }>(`${POOLS_PATH}/:poolId/agents`, { schema: { params: poolParams } }, async (request) => {
    const grant = requireTenant(request);
    const body = parseAgentBody(request.body);
    const { base, authorizationUrl } = wire(request);
    const agent = await deps.registry.register({ poolId: request.params.poolId, agent: body, scopeUrl: grant.scopeUrl, authorizationUrl });
    request.log.info({ runnerId: agent.id, runner: agent.name, poolId: agent.poolId, ephemeral: agent.ephemeral }, 'runner registered');
    return taskAgentWire(agent, base, deps.flow);
  });

  app.put<{ Params: AgentParams }>(`${POOLS_PATH}/:poolId/agents/:agentId`, { schema: { params: agentParams } }, async (request) => {
    const grant = requireTenant(request);
    const body = parseAgentBody(request.body);
    const { base, authorizationUrl } = wire(request);
    const { poolId, agentId } = request.params;
    const agent = await deps.registry.replace(agentId, { poolId, agent: body, scopeUrl: grant.scopeUrl, authorizationUrl });
    request.log.info({ runnerId: agent.id, runner: agent.name, poolId: agent.poolId }, 'runner replaced');
    return taskAgentWire(agent, base, deps.flow);
  });

  app.delete<{ Params: AgentParams }>(`${POOLS_PATH}/:poolId/agents/:agentId`, { schema: { params: agentParams } }, async (request, reply) => {
    requireTenant(request);
    await deps.registry.remove(request.params.agentId);
    request.log.info({ runnerId: request.params.agentId }, 'runner removed');
    return reply.status(204).send();
  });
}
