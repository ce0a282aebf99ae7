import { createServiceRef } from '../kernel/index.js';

/**
 * How the built-in pool (`vm-pool`) gets runners without importing the runner boundary: the
 * `runner-protocol` plugin provides this service and `vm-pool` depends on it. Every runner minted
 * here is ephemeral (one job), in the built-in pool's runner group.
 */

export interface ProvisionRequest {
  /** Runner name, unique among registered runners (any casing). */
  readonly name: string;
  /** Labels the runner serves (`self-hosted`, `linux`, `x64`, `ubuntu-latest`, ...). */
  readonly labels: readonly string[];
  /** Work folder, relative to the runner root (default `_work`). */
  readonly workFolder?: string;
}

export interface ProvisionedRunner {
  /** The value for `svc-runner run --jitconfig` (holds the runner's private key: never log it). */
  readonly encodedJitConfig: string;
  readonly runnerId: number;
}

export interface ProvisionedRunnerState {
  /** `busy` from the moment a job is handed to the runner until it reports back. */
  readonly status: 'offline' | 'online' | 'busy';
  /** Whether the runner was ever handed a job (an ephemeral runner takes exactly one). */
  readonly tookJob: boolean;
}

export interface RunnerProvisioning {
  /** Registers an ephemeral runner and mints its JIT configuration. */
  provision(request: ProvisionRequest): Promise<ProvisionedRunner>;
  /** The runner's registration state, or undefined once it is removed. */
  runnerState(runnerId: number): Promise<ProvisionedRunnerState | undefined>;
  /** Removes the registration; false when it was already gone. */
  remove(runnerId: number): Promise<boolean>;
  /**
   * Removes every registration of the built-in pool whose name starts with `namePrefix` (any
   * casing), except the runners `keep` names: the runners of guests that cannot run any more,
   * such as a killed server's guests that left no record to be adopted from. Answers how many went.
   */
  removeNamed(namePrefix: string, keep?: readonly number[]): Promise<number>;
}

/** Provided by `runner-protocol`. */
export const runnerProvisioningServiceRef = createServiceRef<RunnerProvisioning>({ id: 'runner-protocol.runnerProvisioning' });
