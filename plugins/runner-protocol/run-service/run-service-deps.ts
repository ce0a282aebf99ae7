import type { Engine } from '../../../core/engine/index.js';
import type { Clock, JobValues } from '../../../core/ports/index.js';
import type { JobTokens, RunnerAuth } from '../auth/index.js';
import type { JobRequestsStore } from '../job-requests/index.js';
import type { MessagesStore } from '../messages/index.js';
import type { JobResults } from '../results/index.js';
import type { LegacyFlowTimings } from '../sessions/index.js';
import type { AgentsStore } from '../store/index.js';

export interface RunServiceDeps {
  readonly engine: Engine;
  readonly messages: MessagesStore;
  readonly requests: JobRequestsStore;
  readonly agents: AgentsStore;
  readonly clock: Clock;
  readonly timings: LegacyFlowTimings;
  readonly runnerAuth: RunnerAuth;
  readonly jobTokens: JobTokens;
  /** Records `completejob`'s step results and annotations (results/). */
  readonly results: JobResults;
  /** Opens the sealed secrets of a job message at `acquirejob`; undefined without the secrets plugin. */
  readonly jobValues: JobValues | undefined;
}
