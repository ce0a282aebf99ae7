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
  /** SVC_POOL_NETWORK: guests get outbound network (a backend that cannot give it is not chosen). */
  readonly network: boolean;
  /** The runner socket the server listens on (namespace guests need it). */
  readonly runnerSocket: string | undefined;
  readonly logger: Logger;
  /** SVC_POOL_MICROVM_*: the microvm backend's qemu, kernel and accelerator (defaults when absent). */
  readonly microvm?: EnvConfig['pool']['microvm'];
  /** Replace the built-in backends (tests). */
  readonly backends?: Partial<Record<IsolationKind, () => Promise<IsolationBackend | string>>>;
}

type Probed = { readonly backend: IsolationBackend; readonly reason: string; readonly ok: boolean; readonly noOutboundNetwork?: string | undefined };

async function probed(kind: IsolationKind, inputs: SelectionInputs): Promise<Probed | { readonly backend: undefined; readonly reason: string; readonly ok: false }> {
  const make = inputs.backends?.[kind];
  let backend: IsolationBackend | string;
  if (make !== undefined) backend = await make();
  else if (kind === 'process') backend = createProcessBackend();
  else if (kind === 'microvm') backend = createMicrovmBackend({ dataDir: inputs.dataDir, ...inputs.microvm });
  else {
    const loaded = await loadNamespaceBackend(inputs);
    backend = 'backend' in loaded ? loaded.backend : loaded.unavailable;
  }
  if (typeof backend === 'string') return { backend: undefined, reason: backend, ok: false };
  if ((kind === 'namespace' || kind === 'microvm') && inputs.runnerSocket === undefined) {
    return { backend, ok: false, reason: 'its guests reach the server only through the runner socket: set SVC_RUNNER_SOCKET (the default <data dir>/runner.sock is too long a path)' };
  }
  try {
    const probe = await backend.probe();
    return { backend, reason: probe.reason, ok: probe.ok, noOutboundNetwork: probe.noOutboundNetwork };
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

/** Why a backend that runs guests cannot be used as configured: they would be offline. */
function offline(result: { readonly ok: boolean; readonly noOutboundNetwork?: string | undefined }, network: boolean): string | undefined {
  if (!network || !result.ok || result.noOutboundNetwork === undefined) return undefined;
  return `${result.noOutboundNetwork}; or set SVC_POOL_NETWORK=off to run guests without outbound network`;
}

/**
 * Which isolation backend the pool uses (SVC_POOL_BACKEND). An explicit choice that cannot run
 * here (or not with the outbound network SVC_POOL_NETWORK asks for) stops the start naming the
 * knob; `auto` takes namespace when it can, else process with the reason namespace could not be
 * used; undefined when no backend can run (not Linux).
 */
export async function selectBackend(inputs: SelectionInputs): Promise<BackendSelection | undefined> {
  const { choice, logger } = inputs;
  if (choice === 'off') return undefined;
  if (choice !== 'auto') {
    const result = await probed(choice, inputs);
    if (!result.ok || result.backend === undefined) throw refused(choice, result.reason);
    const noNetwork = offline(result, inputs.network);
    if (noNetwork !== undefined) throw refused(choice, noNetwork);
    return { backend: result.backend, reason: `SVC_POOL_BACKEND=${choice}: ${result.reason}`, fallback: undefined };
  }
  // auto keeps namespace as the default; the microvm probe is logged so a user knows whether it could be chosen.
  const microvm = await probed('microvm', inputs);
  if (microvm.ok) logger.info({ backend: 'microvm', reason: microvm.reason }, `built-in pool: the microvm backend can run here (choose it with SVC_POOL_BACKEND=microvm): ${microvm.reason}`);
  else logger.info({ backend: 'microvm', reason: microvm.reason }, `built-in pool: the microvm backend is not available: ${microvm.reason}`);
  const namespace = await probed('namespace', inputs);
  const noNetwork = offline(namespace, inputs.network);
  if (namespace.ok && namespace.backend !== undefined && noNetwork === undefined) {
    return { backend: namespace.backend, reason: `SVC_POOL_BACKEND=auto picked namespace: ${namespace.reason}`, fallback: undefined };
  }
  const whyNot = noNetwork ?? namespace.reason;
  const plain = await probed('process', inputs);
  if (!plain.ok || plain.backend === undefined) {
    logger.warn({ namespace: whyNot, process: plain.reason }, `built-in pool is off: no backend can run guests here (namespace: ${whyNot}; process: ${plain.reason})`);
    return undefined;
  }
  return {
    backend: plain.backend,
    reason: `SVC_POOL_BACKEND=auto fell back to process because the namespace backend cannot be used: ${whyNot}`,
    fallback: whyNot,
  };
}
