import type { Engine } from '../../core/engine/index.js';
import type { SystemAuth } from '../../core/kernel/index.js';
import type { Clock, Database, IdGenerator, SharedKeys } from '../../core/ports/index.js';
import { createAgentRegistry, type AgentRegistry, type FlowSettings } from './agents/index.js';
import {
  createAssertionVerifier,
  createJobAttempts,
  createJobTokens,
  createRunnerAuth,
  createRunnerTokens,
  loadSigningKey,
  type AssertionVerifier,
  type JobTokens,
  type RegistrationPolicy,
  type RunnerAuth,
  type RunnerTokens,
} from './auth/index.js';
import { createJitProvisioner, type JitProvisioner } from './registration/index.js';
import { createAgentsStore, createAssertionJtis, createPoolsStore, runnerDb, type AgentsStore, type PoolsStore } from './store/index.js';
import { createRunnerUrls, type RunnerUrls } from './urls/index.js';

/** What the plugin's route groups share; built once in `init`. */
export interface RunnerProtocolServices {
  readonly pools: PoolsStore;
  readonly agents: AgentsStore;
  readonly tokens: RunnerTokens;
  /** Mints and verifies job access tokens (valid only while their job attempt is live); give it to `requireJobToken` on the Worker's routes. */
  readonly jobTokens: JobTokens;
  readonly assertions: AssertionVerifier;
  /** Verifies runner access tokens; give it to `requireRunnerToken` on runner routes. */
  readonly runnerAuth: RunnerAuth;
  readonly registry: AgentRegistry;
  readonly provisioner: JitProvisioner;
  readonly urls: RunnerUrls;
  readonly flow: FlowSettings;
  readonly policy: RegistrationPolicy;
  readonly systemAuth: SystemAuth;
}

export interface ServiceInputs {
  readonly database: Database;
  /** Where job tokens' attempts are looked up (auth/job-attempts.ts). */
  readonly engine: Pick<Engine, 'getJob'>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Where the token-signing key is kept (the same on every node). */
  readonly sharedKeys: SharedKeys;
  readonly systemAuth: SystemAuth;
  readonly policy: RegistrationPolicy;
  readonly publicUrl: string | undefined;
  readonly runnerVersion: string;
  /** `SVC_RUNNER_FLOW`: agents registered from now on are told `UseV2Flow` when `broker`. */
  readonly runnerFlow?: 'legacy' | 'broker';
  /** The host's address (SVC_PUBLIC_URL or the TCP listener), for runners on the runner socket. */
  readonly listenerUrl?: () => string;
}

export async function createRunnerProtocolServices(inputs: ServiceInputs): Promise<RunnerProtocolServices> {
  const db = runnerDb(inputs.database);
  const pools = createPoolsStore(db);
  const agents = createAgentsStore(db, inputs.clock);
  const key = await loadSigningKey(inputs.sharedKeys);
  const tokens = createRunnerTokens({ key, clock: inputs.clock, ids: inputs.ids });
  const registry = createAgentRegistry({ agents, pools, ids: inputs.ids });
  return {
    pools,
    agents,
    tokens,
    jobTokens: createJobTokens({ key, clock: inputs.clock, ids: inputs.ids, attempts: createJobAttempts(inputs.engine) }),
    assertions: createAssertionVerifier({ agents, jtis: createAssertionJtis(db), clock: inputs.clock }),
    runnerAuth: createRunnerAuth({ tokens, agents }),
    registry,
    provisioner: createJitProvisioner({ registry, pools, runnerVersion: inputs.runnerVersion }),
    urls: createRunnerUrls(inputs.publicUrl, inputs.listenerUrl),
    // §1.6: the runner reads UseV2Flow/ServerUrlV2 from its agent at configure time.
    flow: { useV2Flow: inputs.runnerFlow === 'broker' },
    policy: inputs.policy,
    systemAuth: inputs.systemAuth,
  };
}
