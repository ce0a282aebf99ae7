import type { Clock } from '../../../core/ports/index.js';
import { nextRunnerId, type RunnerDb, type RunnerExecutor } from './runner-db.js';
import type { AgentDraft, AgentLabel, AgentRecord, AgentStatus } from './records.js';
import type { RunnerAgentsTable } from './tables.js';

export type CreateAgentResult = { readonly kind: 'created'; readonly agent: AgentRecord } | { readonly kind: 'name_taken'; readonly existing: AgentRecord };
export type ReplaceAgentResult =
  | { readonly kind: 'replaced'; readonly agent: AgentRecord }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'name_taken'; readonly existing: AgentRecord };

export interface AgentsStore {
  get(id: number): Promise<AgentRecord | undefined>;
  findByClientId(clientId: string): Promise<AgentRecord | undefined>;
  /** Runners named `name` (ignoring case), in one pool or, for pool 0, in all of them. */
  findByName(name: string, poolId: number): Promise<AgentRecord[]>;
  list(poolId: number): Promise<AgentRecord[]>;
  /** Number of runners per pool id (pools without runners are absent). */
  countByPool(): Promise<Map<number, number>>;
  create(draft: AgentDraft): Promise<CreateAgentResult>;
  /** Replaces everything but the id, the creation time and the status. */
  replace(id: number, draft: AgentDraft): Promise<ReplaceAgentResult>;
  delete(id: number): Promise<boolean>;
  setStatus(id: number, status: AgentStatus): Promise<boolean>;
}

/** The one normalisation of names for uniqueness and lookup. */
export function agentNameKey(name: string): string {
  return name.toLowerCase();
}

function toAgent(row: RunnerAgentsTable): AgentRecord {
  return {
    id: Number(row.id),
    poolId: Number(row.pool_id),
    name: row.name,
    version: row.version,
    osDescription: row.os_description,
    labels: JSON.parse(row.labels) as AgentLabel[],
    publicKey: { exponent: row.public_exponent, modulus: row.public_modulus },
    clientId: row.client_id,
    authorizationUrl: row.authorization_url,
    ephemeral: Number(row.ephemeral) === 1,
    disableUpdate: Number(row.disable_update) === 1,
    status: row.status as AgentStatus,
    scopeUrl: row.scope_url,
    homeNode: row.home_node ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function draftColumns(draft: AgentDraft) {
  return {
    pool_id: draft.poolId,
    name: draft.name,
    name_key: agentNameKey(draft.name),
    version: draft.version,
    os_description: draft.osDescription,
    labels: JSON.stringify(draft.labels),
    public_exponent: draft.publicKey.exponent,
    public_modulus: draft.publicKey.modulus,
    client_id: draft.clientId,
    authorization_url: draft.authorizationUrl,
    ephemeral: draft.ephemeral ? 1 : 0,
    disable_update: draft.disableUpdate ? 1 : 0,
    scope_url: draft.scopeUrl,
    home_node: draft.homeNode ?? null,
  };
}

async function holderOfName(db: RunnerExecutor, poolId: number, name: string, exceptId?: number): Promise<AgentRecord | undefined> {
  let query = db.selectFrom('runner_agents').selectAll().where('pool_id', '=', poolId).where('name_key', '=', agentNameKey(name));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const row = await query.executeTakeFirst();
  return row ? toAgent(row) : undefined;
}

export function createAgentsStore(db: RunnerDb, clock: Clock): AgentsStore {
  const get = async (id: number): Promise<AgentRecord | undefined> => {
    const row = await db.selectFrom('runner_agents').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAgent(row) : undefined;
  };

  return {
    get,
    async findByClientId(clientId) {
      const row = await db.selectFrom('runner_agents').selectAll().where('client_id', '=', clientId).executeTakeFirst();
      return row ? toAgent(row) : undefined;
    },
    async findByName(name, poolId) {
      let query = db.selectFrom('runner_agents').selectAll().where('name_key', '=', agentNameKey(name));
      if (poolId !== 0) query = query.where('pool_id', '=', poolId);
      return (await query.orderBy('id').execute()).map(toAgent);
    },
    async list(poolId) {
      let query = db.selectFrom('runner_agents').selectAll();
      if (poolId !== 0) query = query.where('pool_id', '=', poolId);
      return (await query.orderBy('id').execute()).map(toAgent);
    },
    async countByPool() {
      const rows = await db.selectFrom('runner_agents').select(['pool_id', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('pool_id').execute();
      return new Map(rows.map((row) => [Number(row.pool_id), Number(row.count)]));
    },
    async create(draft) {
      try {
        return await db.transaction().execute(async (tx): Promise<CreateAgentResult> => {
          const existing = await holderOfName(tx, draft.poolId, draft.name);
          if (existing) return { kind: 'name_taken', existing };
          const id = await nextRunnerId(tx, 'agent');
          const now = clock.now();
          const row = { id, ...draftColumns(draft), status: 'offline', created_at: now, updated_at: now };
          await tx.insertInto('runner_agents').values(row).execute();
          return { kind: 'created', agent: toAgent(row) };
        });
      } catch (error) {
        // Two registrations of one name at once: the unique constraint let one of them in.
        const existing = await holderOfName(db, draft.poolId, draft.name);
        if (existing) return { kind: 'name_taken', existing };
        throw error;
      }
    },
    async replace(id, draft) {
      try {
        return await db.transaction().execute(async (tx): Promise<ReplaceAgentResult> => {
          const current = await tx.selectFrom('runner_agents').selectAll().where('id', '=', id).executeTakeFirst();
          if (!current) return { kind: 'not_found' };
          const existing = await holderOfName(tx, draft.poolId, draft.name, id);
          if (existing) return { kind: 'name_taken', existing };
          const columns = { ...draftColumns(draft), updated_at: clock.now() };
          await tx.updateTable('runner_agents').set(columns).where('id', '=', id).execute();
          return { kind: 'replaced', agent: toAgent({ ...current, ...columns }) };
        });
      } catch (error) {
        const existing = await holderOfName(db, draft.poolId, draft.name, id);
        if (existing) return { kind: 'name_taken', existing };
        throw error;
      }
    },
    async delete(id) {
      const result = await db.deleteFrom('runner_agents').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async setStatus(id, status) {
      const result = await db.updateTable('runner_agents').set({ status, updated_at: clock.now() }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
