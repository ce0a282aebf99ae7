import type { IdGenerator } from '../../../core/ports/index.js';
import { publicKeyObject } from '../auth/index.js';
import type { AgentDraft, AgentRecord, AgentsStore, PoolRecord, PoolsStore } from '../store/index.js';
import { VssError } from '../vss/index.js';
import type { AgentBody } from './agent-body.js';

export interface RegisterInput {
  readonly poolId: number;
  readonly agent: AgentBody;
  /** The `--url` the runner was configured for, if any. */
  readonly scopeUrl: string | null;
  /** The token URL it is told to use (the assertion audience). */
  readonly authorizationUrl: string;
  /** Only the built-in pool's own provisioning (JIT) puts runners into a hosted pool. */
  readonly allowHostedPool?: boolean;
  /** The node whose built-in pool mints this runner. */
  readonly homeNode?: string;
}

/** Registering, replacing and removing runners, with the errors the runner understands. */
export interface AgentRegistry {
  register(input: RegisterInput): Promise<AgentRecord>;
  /** `--replace`: new key, labels and flags, a new client id (old tokens die); pool 0 keeps the pool. */
  replace(agentId: number, input: RegisterInput): Promise<AgentRecord>;
  remove(agentId: number): Promise<void>;
}

/** The spec's message for a name clash without `--replace` ("Runner messages"). */
export function runnerExistsError(name: string): VssError {
  return new VssError(409, 'TaskAgentExistsException', `Runner '${name}' already exists`, { code: 'runner_exists' });
}

export function agentNotFoundError(agentId: number): VssError {
  return new VssError(404, 'TaskAgentNotFoundException', `No runner with id ${agentId} is registered`, { code: 'runner_not_found' });
}

export function createAgentRegistry(deps: { readonly agents: AgentsStore; readonly pools: PoolsStore; readonly ids: IdGenerator }): AgentRegistry {
  const { agents, pools, ids } = deps;

  const poolFor = async (poolId: number, allowHosted: boolean): Promise<PoolRecord> => {
    const pool = await pools.get(poolId);
    if (!pool) throw new VssError(404, 'TaskAgentPoolNotFoundException', `Could not find a runner group with id ${poolId}`, { code: 'runner_group_not_found' });
    if (pool.isHosted && !allowHosted) {
      throw new VssError(400, 'VssServiceException', `runner group '${pool.name}' is the built-in pool and takes no external runners; use the 'Default' group`, {
        code: 'runner_group_hosted',
      });
    }
    return pool;
  };

  const draftOf = (pool: PoolRecord, input: RegisterInput): AgentDraft => {
    const key = publicKeyObject(input.agent.publicKey);
    if (typeof key === 'string') throw new VssError(400, 'VssServiceException', key, { code: 'invalid_public_key' });
    return {
      poolId: pool.id,
      name: input.agent.name,
      version: input.agent.version,
      osDescription: input.agent.osDescription,
      labels: input.agent.labels,
      publicKey: input.agent.publicKey,
      clientId: ids.uuid(),
      authorizationUrl: input.authorizationUrl,
      ephemeral: input.agent.ephemeral,
      disableUpdate: input.agent.disableUpdate,
      scopeUrl: input.scopeUrl,
      homeNode: input.homeNode ?? null,
    };
  };

  return {
    async register(input) {
      const pool = await poolFor(input.poolId, input.allowHostedPool === true);
      const result = await agents.create(draftOf(pool, input));
      if (result.kind === 'name_taken') throw runnerExistsError(result.existing.name);
      return result.agent;
    },
    async replace(agentId, input) {
      const current = await agents.get(agentId);
      if (!current) throw agentNotFoundError(agentId);
      const pool = await poolFor(input.poolId === 0 ? current.poolId : input.poolId, input.allowHostedPool === true || input.poolId === 0);
      const result = await agents.replace(agentId, draftOf(pool, { ...input, scopeUrl: input.scopeUrl ?? current.scopeUrl }));
      if (result.kind === 'not_found') throw agentNotFoundError(agentId);
      if (result.kind === 'name_taken') throw runnerExistsError(result.existing.name);
      return result.agent;
    },
    async remove(agentId) {
      if (!(await agents.delete(agentId))) throw agentNotFoundError(agentId);
    },
  };
}
