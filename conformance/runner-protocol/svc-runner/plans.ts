/**
 * The scenarios where svc-runner can play the runner's part, and how: a job run (`run --once`
 * per job the scenario's runner takes), a cancelled job, or `configure` + `remove`. A known
 * divergence keeps its scenario listed with the exact request that differs (the test marks it
 * todo; the product is not changed here).
 */
export interface RunnerPlan {
  readonly scenario: string;
  readonly kind: 'job' | 'remove';
  /** Jobs the scenario's runner takes (default 1). */
  readonly jobs?: number;
  /** Cancel the run (operator API) while its first job runs. */
  readonly cancel?: boolean;
  /** Trailing corpus calls that probe the server after the runner's part (not the runner's requests). */
  readonly tailProbes?: number;
  /** A divergence from the official runner's sequence, known and reported. */
  readonly divergence?: string;
}

export const RUNNER_PLANS: readonly RunnerPlan[] = [
  // The last two calls of removal are the scenario's probes: the removed runner's stale assertion refused, the name free again.
  { scenario: 'removal', kind: 'remove', tailProbes: 2 },
  { scenario: 'multi-step-job', kind: 'job' },
  { scenario: 'step-failure', kind: 'job' },
  { scenario: 'cancellation', kind: 'job', cancel: true },
  { scenario: 'broker-flow', kind: 'job' },
  { scenario: 'broker-cancellation', kind: 'job', cancel: true },
  { scenario: 'results-service', kind: 'job' },
  { scenario: 'run-service-step-results', kind: 'job' },
];
