import type { RunnerProvisioning } from '../../core/ports/index.js';
import type { JobRequestsStore } from './job-requests/index.js';
import type { JitProvisioner } from './registration/index.js';
import { BUILT_IN_POOL_ID, type AgentsStore } from './store/index.js';

export interface RunnerProvisioningDeps {
  readonly provisioner: JitProvisioner;
  readonly agents: AgentsStore;
  readonly requests: JobRequestsStore;
  /** The base runners reach us at (SVC_PUBLIC_URL, else the TCP listener), once HTTP listens. */
  readonly base: () => string;
  /** This node: the home of every runner its pool mints. */
  readonly nodeId: string;
}

/**
 * The `runnerProvisioningServiceRef` service (core/ports/runner-provisioning.ts) the built-in pool
 * mints its guests' runners through: the JIT route's provisioner, in the built-in runner group,
 * without an HTTP round trip; the job-handed-out signal is the job-request record (legacy and
 * broker flows both write it when they hand a job to a runner) or the agent's `busy` status.
 */
export function createRunnerProvisioning(deps: RunnerProvisioningDeps): RunnerProvisioning {
  return {
    async provision(request) {
      const { agent, encodedJitConfig } = await deps.provisioner.provision({
        name: request.name,
        labels: request.labels,
        poolId: BUILT_IN_POOL_ID,
        workFolder: request.workFolder ?? '_work',
        base: deps.base().replace(/\/+$/, ''),
        homeNode: deps.nodeId,
      });
      return { encodedJitConfig, runnerId: agent.id };
    },
    async runnerState(runnerId) {
      const agent = await deps.agents.get(runnerId);
      if (agent === undefined) return undefined;
      return { status: agent.status, tookJob: agent.status === 'busy' || (await deps.requests.hasAny(runnerId)) };
    },
    remove: (runnerId) => deps.agents.delete(runnerId),
    async removeNamed(namePrefix, keep = []) {
      const prefix = namePrefix.toLowerCase();
      if (prefix === '') throw new Error('removeNamed needs a name prefix');
      const named = (await deps.agents.list(BUILT_IN_POOL_ID)).filter((agent) => agent.name.toLowerCase().startsWith(prefix) && !keep.includes(agent.id));
      let removed = 0;
      for (const agent of named) if (await deps.agents.delete(agent.id)) removed += 1;
      return removed;
    },
  };
}
