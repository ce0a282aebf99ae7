import type { FastifyInstance } from 'fastify';
import { POOL_ID_SCHEMA, type AgentsStore, type PoolsStore } from '../store/index.js';
import { VssError, wrappedList } from '../vss/index.js';
import { taskAgentPoolWire } from './agent-wire.js';

export const POOLS_PATH = '/_apis/distributedtask/pools';

const poolIdParams = {
  type: 'object',
  required: ['poolId'],
  properties: { poolId: POOL_ID_SCHEMA },
} as const;

const poolsQuery = {
  type: 'object',
  properties: { poolName: { type: 'string' }, poolType: { type: 'string' }, properties: { type: 'string' } },
} as const;

/** `poolType`: `Automation` (1) lists our groups; `Deployment` (2) has none. */
function wantsAutomation(poolType: string | undefined): boolean {
  return poolType === undefined || poolType === '' || poolType.toLowerCase() === 'automation' || poolType === '1';
}

/** `GET pools` (runner groups, §1.4) and `GET pools/{poolId}`. */
export function registerPoolRoutes(app: FastifyInstance, deps: { readonly pools: PoolsStore; readonly agents: AgentsStore }): void {
  const sizes = () => deps.agents.countByPool();

  app.get<{ Querystring: { poolName?: string; poolType?: string } }>(POOLS_PATH, { schema: { querystring: poolsQuery } }, async (request) => {
    const { poolName, poolType } = request.query;
    if (!wantsAutomation(poolType)) return wrappedList([]);
    const counts = await sizes();
    const pools = (await deps.pools.list()).filter((pool) => poolName === undefined || poolName === '' || pool.name.toLowerCase() === poolName.toLowerCase());
    return wrappedList(pools.map((pool) => taskAgentPoolWire(pool, counts.get(pool.id) ?? 0)));
  });

  app.get<{ Params: { poolId: number } }>(`${POOLS_PATH}/:poolId`, { schema: { params: poolIdParams } }, async (request) => {
    const pool = await deps.pools.get(request.params.poolId);
    if (!pool) throw new VssError(404, 'TaskAgentPoolNotFoundException', `Could not find a runner group with id ${request.params.poolId}`);
    return taskAgentPoolWire(pool, (await sizes()).get(pool.id) ?? 0);
  });
}
