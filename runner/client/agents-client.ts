import type { TaskAgentPublicKey } from '../../core/protocol/index.js';
import { unwrapList, type VssConnection } from './vss-connection.js';
import { LOCATIONS } from './vss-routes.js';
import { wireValidator } from './wire-schema.js';

/** A runner group as `GET pools` lists it (§1.4). */
export interface AgentPool {
  readonly id: number;
  readonly name: string;
  readonly isHosted?: boolean;
  readonly isInternal?: boolean;
}

export interface AgentLabel {
  readonly id: number;
  readonly name: string;
  readonly type: 'system' | 'user';
}

/** The registration of a runner (TaskAgent, §1.5) as the server stores and answers it. */
export interface TaskAgent {
  readonly id: number;
  readonly name: string;
  readonly version?: string;
  readonly ephemeral?: boolean | null;
  readonly disableUpdate?: boolean | null;
  readonly authorization?: { readonly clientId?: string | null; readonly authorizationUrl?: string | null } | null;
  readonly properties?: Readonly<Record<string, unknown>> | null;
  readonly [member: string]: unknown;
}

/** What configure sends for a new or replaced runner. */
export interface AgentUpdate {
  readonly name: string;
  readonly version: string;
  readonly osDescription: string;
  readonly ephemeral: boolean;
  readonly disableUpdate: boolean;
  readonly publicKey: TaskAgentPublicKey;
  readonly labels: readonly AgentLabel[];
}

const poolSchema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } as const;
const checkPool = wireValidator<AgentPool>(poolSchema);
const agentSchema = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', minimum: 0 },
    name: { type: 'string' },
    authorization: { type: ['object', 'null'], properties: { clientId: { type: ['string', 'null'] }, authorizationUrl: { type: ['string', 'null'] } } },
    properties: { type: ['object', 'null'] },
  },
} as const;
const checkAgent = wireValidator<TaskAgent>(agentSchema);

/** The pools and agents resources of the tenant (configure and remove, §1.4, §1.5, §1.11). */
export class AgentsClient {
  constructor(private readonly connection: VssConnection) {}

  async pools(): Promise<AgentPool[]> {
    const body = await this.connection.request({ location: LOCATIONS.pools, method: 'GET', query: { poolType: 'Automation' } });
    return unwrapList<unknown>(body, 'GET pools').map((pool) => checkPool(pool, 'a pool of GET pools'));
  }

  /** Agents with this name in any pool (`poolId` 0). */
  async findByName(name: string): Promise<TaskAgent[]> {
    const body = await this.connection.request({ location: LOCATIONS.agents, method: 'GET', route: { poolId: 0 }, query: { agentName: name } });
    return unwrapList<unknown>(body, 'GET agents').map((agent) => checkAgent(agent, 'an agent of GET agents'));
  }

  async add(poolId: number, update: AgentUpdate): Promise<TaskAgent> {
    const json = { id: 0, status: 0, provisioningState: null, createdOn: '0001-01-01T00:00:00', ...agentBody(update) };
    const body = await this.connection.request({ location: LOCATIONS.agents, method: 'POST', route: { poolId }, json, attempts: 1 });
    return checkAgent(body, 'the answer of POST agents');
  }

  /** PUT the existing agent with the new key, version, flags and a fully replaced label list. */
  async replace(poolId: number, existing: TaskAgent, update: AgentUpdate): Promise<TaskAgent> {
    const json = { ...existing, ...agentBody(update) };
    const body = await this.connection.request({ location: LOCATIONS.agents, method: 'PUT', route: { poolId, agentId: existing.id }, json, attempts: 1 });
    return checkAgent(body, 'the answer of PUT agents');
  }

  /** `DELETE agents/0/<id>` (the pool id is ignored server-side, §1.11). */
  async remove(agentId: number): Promise<void> {
    await this.connection.request({ location: LOCATIONS.agents, method: 'DELETE', route: { poolId: 0, agentId } });
  }
}

function agentBody(update: AgentUpdate): Record<string, unknown> {
  return {
    name: update.name,
    version: update.version,
    osDescription: update.osDescription,
    ephemeral: update.ephemeral,
    disableUpdate: update.disableUpdate,
    maxParallelism: 1,
    authorization: { publicKey: update.publicKey },
    labels: update.labels,
  };
}

/** A property-bag value: a plain scalar or `{"$type": ..., "$value": ...}` (§1.5). */
export function agentProperty(agent: TaskAgent, name: string): unknown {
  const properties = agent.properties ?? {};
  const key = Object.keys(properties).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = properties[key];
  if (typeof value === 'object' && value !== null && '$value' in value) return (value as { $value: unknown }).$value;
  return value;
}

/** A property as a boolean (`true`, `"True"`), or `fallback` when absent or unreadable. */
export function agentFlag(agent: TaskAgent, name: string, fallback: boolean): boolean {
  const value = agentProperty(agent, name);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return fallback;
}
