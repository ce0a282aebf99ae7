import type { Logger } from '../../../core/kernel/index.js';
import type { IsolationBackend } from './isolation-backend.js';

/** What the namespace backend is built with (backends/namespace/index.ts). */
export interface NamespaceBackendOptions {
  /** The server's data directory (hidden from guests; their host-side state goes under it). */
  readonly dataDir: string;
  readonly logger: Logger;
}

export type LoadedBackend = { readonly backend: IsolationBackend } | { readonly unavailable: string };

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * The namespace backend, imported lazily (a host that never selects it never loads it); a build
 * without it counts as a failed probe, with the reason.
 */
export async function loadNamespaceBackend(options: NamespaceBackendOptions): Promise<LoadedBackend> {
  try {
    const { createNamespaceBackend } = await import('./namespace/index.js');
    return { backend: createNamespaceBackend({ dataDir: options.dataDir, logger: options.logger }) };
  } catch (error) {
    if (isMissingModule(error)) return { unavailable: 'the namespace backend is not part of this build' };
    return { unavailable: `the namespace backend failed to load: ${(error as Error).message}` };
  }
}
