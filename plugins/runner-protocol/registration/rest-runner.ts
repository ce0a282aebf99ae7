import type { AgentLabel, AgentRecord, LabelType, PoolRecord } from '../store/index.js';

/** GitHub's REST spelling of label types (`read-only` for the runner's own, `custom` for the rest). */
function restLabelType(type: LabelType): string {
  return type === 'system' ? 'read-only' : 'custom';
}

const OS_LABELS: Readonly<Record<string, string>> = { linux: 'linux', macos: 'macos', windows: 'windows' };

/** The `os` the REST API reports, from the runner's system labels (`unknown` without one). */
export function osOfLabels(labels: readonly AgentLabel[]): string {
  for (const label of labels) {
    const os = label.type === 'system' ? OS_LABELS[label.name.toLowerCase()] : undefined;
    if (os !== undefined) return os;
  }
  return 'unknown';
}

/**
 * A runner as GitHub's REST API shows it (`generate-jitconfig`, runner-admin `runners`,
 * `runners/register`): `status` online/offline with `busy` apart, labels with REST types.
 */
export function restRunner(agent: AgentRecord, pool: PoolRecord | undefined, os = osOfLabels(agent.labels)) {
  return {
    id: agent.id,
    name: agent.name,
    os,
    status: agent.status === 'offline' ? 'offline' : 'online',
    busy: agent.status === 'busy',
    ephemeral: agent.ephemeral,
    runner_group_id: agent.poolId,
    ...(pool === undefined ? {} : { runner_group_name: pool.name }),
    labels: agent.labels.map((label, index) => ({ id: index + 1, name: label.name, type: restLabelType(label.type) })),
  };
}

/** A runner group as GitHub's REST API shows it (runner-admin `runner-groups`; `default` = internal). */
export function restRunnerGroup(pool: PoolRecord) {
  return { id: pool.id, name: pool.name, default: pool.isInternal, is_hosted: pool.isHosted, visibility: 'all' };
}
