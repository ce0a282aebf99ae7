import type { AgentRecord, PoolRecord } from '../store/index.js';
import { brokerUrl } from '../urls/index.js';
import { vssDate } from '../vss/index.js';

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
/** The .NET "unset" DateTime (§0.3). */
const UNSET_DATE = '0001-01-01T00:00:00';

/** How registration answers about the flow the runner is to use at `run` (§1.6, §1.7). */
export interface FlowSettings {
  /**
   * True (SVC_RUNNER_FLOW=broker): runner-registration sends `config.sh` down the runner-admin
   * path and agents say `UseV2Flow`. False: the legacy configure path and the legacy session +
   * message queue; the broker can still move runners later.
   */
  readonly useV2Flow: boolean;
}

/**
 * A runner as the runner reads it (TaskAgent, camelCase). `authorization.clientId` and
 * `authorizationUrl` are what configuration stores as its OAuth identity, and `properties` tell it
 * the JWT algorithm (`RequireFipsCryptography` false: RS256, which every runner version can sign)
 * and the flow; `ephemeral`/`disableUpdate` are echoed or the runner aborts.
 */
export function taskAgentWire(agent: AgentRecord, base: string, flow: FlowSettings) {
  return {
    id: agent.id,
    name: agent.name,
    version: agent.version,
    osDescription: agent.osDescription,
    enabled: true,
    status: agent.status,
    provisioningState: 'Provisioned',
    ephemeral: agent.ephemeral,
    disableUpdate: agent.disableUpdate,
    maxParallelism: 1,
    createdOn: vssDate(agent.createdAt),
    authorization: {
      authorizationUrl: agent.authorizationUrl,
      clientId: agent.clientId,
      publicKey: { exponent: agent.publicKey.exponent, modulus: agent.publicKey.modulus },
    },
    labels: agent.labels.map((label, index) => ({ id: index + 1, name: label.name, type: label.type })),
    properties: {
      RequireFipsCryptography: false,
      UseV2Flow: flow.useV2Flow,
      ServerUrlV2: brokerUrl(base),
    },
  };
}

/** A runner group as the runner reads it (TaskAgentPool). */
export function taskAgentPoolWire(pool: PoolRecord, size: number) {
  return {
    id: pool.id,
    scope: EMPTY_GUID,
    name: pool.name,
    isHosted: pool.isHosted,
    isInternal: pool.isInternal,
    poolType: 'automation',
    size,
    isLegacy: false,
    createdOn: UNSET_DATE,
    autoProvision: false,
    properties: {},
  };
}
