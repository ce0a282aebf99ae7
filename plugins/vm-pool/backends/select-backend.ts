import { ConfigError, type EnvConfig, type Logger } from '../../../core/kernel/index.js';
import type { IsolationBackend, IsolationKind } from './isolation-backend.js';
import { createMicrovmBackend } from './microvm/index.js';
import { loadNamespaceBackend, type NamespaceBackendOptions } from './namespace-loader.js';
import { createProcessBackend } from './process/index.js';

export type PoolBackendChoice = EnvConfig['pool']['backend'];

export interface BackendSelection {
  readonly backend: IsolationBackend;
  /** Why this backend (one sentence for logs and status). */
  readonly reason: string;
  /** `auto` fell back from namespace to process: why namespace could not be used. */
  readonly fallback: string | undefined;
}

export interface SelectionInputs extends NamespaceBackendOptions {
  readonly choice: PoolBackendChoice;
  /** The runner socket the server listens on (namespace guests need it). */
  readonly runnerSocket: string | undefined;
  readonly logger: Logger;
  /** Replace the built-in backends (tests). */
  readonly backends?: Partial<Record<IsolationKind, () => Promise<IsolationBackend | string>>>;
}

type Probed = { readonly backend: IsolationBackend; readonly reason: string; readonly ok: boolean };

async function probed(kind: IsolationKind, inputs: SelectionInputs): Promise<Probed | { readonly backend: undefined; readonly reason: string; readonly ok: false }> {
  const make = inputs.backends?.[kind];
  let backend: IsolationBackend | string;
  if (make !== undefined) backend = await make();
  else if (kind === 'process') backend = createProcessBackend();
  else if (kind === 'microvm') backend = createMicrovmBackend();
  else {
    const loaded = await loadNamespaceBackend(inputs);
    backend = 'backend' in loaded ? loaded.backend : loaded.unavailable;
  }
  if (typeof backend === 'string') return { backend: undefined, reason: backend, ok: false };
  if (kind === 'namespace' && inputs.runnerSocket === undefined) {
    return { backend, ok: false, reason: 'its guests reach the server only through the runner socket: set SVC_RUNNER_SOCKET (the default <data dir>/runner.sock is too long a path)' };
  }
  try {
    const probe = await backend.probe();
    return { backend, reason: probe.reason, ok: probe.ok };
  } catch (error) {
    return { backend, reason: `its probe failed: ${(error as Error).message}`, ok: false };
  }
}

function refused(choice: PoolBackendChoice, reason: string): ConfigError {
  return new ConfigError(
    `SVC_POOL_BACKEND=${choice}: the ${choice} backend cannot run guests on this host: ${reason}; ` +
      'choose another backend (SVC_POOL_BACKEND=auto, namespace or process) or turn the built-in pool off (SVC_POOL_BACKEND=off)',
    { code: 'pool_backend_unavailable' },
  );
}

/**
 * Which isolation backend the pool uses (SVC_POOL_BACKEND). An explicit choice that cannot run
 * here stops the start naming the knob; `auto` takes namespace when its probe passes, else
 * process with the namespace probe's reason; undefined when no backend can run (not Linux).
 */
export async function selectBackend(inputs: SelectionInputs): Promise<BackendSelection | undefined> {
  const { choice, logger } = inputs;
  if (choice === 'off') return undefined;
  if (choice !== 'auto') {
    const result = await probed(choice, inputs);
    if (!result.ok || result.backend === undefined) throw refused(choice, result.reason);
    return { backend: result.backend, reason: `SVC_POOL_BACKEND=${choice}: ${result.reason}`, fallback: undefined };
  }
  const microvm = await probed('microvm', inputs);
  logger.info({ backend: 'microvm', reason: microvm.reason }, `built-in pool: the microvm backend is not available: ${microvm.reason}`);
  const namespace = await probed('namespace', inputs);
  if (namespace.ok && namespace.backend !== undefined) {
    return { backend: namespace.backend, reason: `SVC_POOL_BACKEND=auto picked namespace: ${namespace.reason}`, fallback: undefined };
  }
  const plain = await probed('process', inputs);
  if (!plain.ok || plain.backend === undefined) {
    logger.warn({ namespace: namespace.reason, process: plain.reason }, `built-in pool is off: no backend can run guests here (namespace: ${namespace.reason}; process: ${plain.reason})`);
    return undefined;
  }
  return {
    backend: plain.backend,
    reason: `SVC_POOL_BACKEND=auto fell back to process because the namespace backend cannot be used: ${namespace.reason}`,
    fallback: namespace.reason,
  };
}
