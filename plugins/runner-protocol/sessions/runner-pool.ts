import { POOL_ID_SCHEMA, type AgentRecord, type PoolsStore } from '../store/index.js';
import { VssError } from '../vss/index.js';

/** Route parameters of every session, message and job-request route (`…/pools/{poolId}/…`). */
export const poolIdParamsSchema = {
  type: 'object',
  required: ['poolId'],
  properties: { poolId: POOL_ID_SCHEMA },
} as const;

/**
 * A runner reaches its session, messages and job requests only through the pool it is in (its
 * `.runner` `poolId`). Anything else gets the exception the runner treats as fatal for that pool:
 * a group that does not exist, or a runner that is not in it (§2.9).
 */
export async function requireRunnerPool(runner: AgentRecord, poolId: number, pools: PoolsStore): Promise<void> {
  if (poolId === runner.poolId) return;
  if (!(await pools.get(poolId))) throw new VssError(404, 'TaskAgentPoolNotFoundException', `Could not find a runner group with id ${poolId}`);
  throw new VssError(404, 'TaskAgentNotFoundException', `Runner '${runner.name}' is not in runner group ${poolId}`);
}
