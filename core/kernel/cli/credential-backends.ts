import type { CredentialBackends } from '../catalog.js';

let provided: CredentialBackends | undefined;

/**
 * The credential store backends a CLI process reads the server's stored system token with
 * (resolveConnection, for every plugin's commands). The kernel names no backend: the CLI's
 * composition root (cli/svc.ts) provides the built-in ones once, before any command runs.
 */
export function provideCredentialBackends(backends: CredentialBackends): void {
  provided = backends;
}

/** The provided backends; none provided is a bug in the process's entry point, said as such. */
export function providedCredentialBackends(): CredentialBackends {
  if (provided === undefined) {
    throw new Error('no credential backends were provided to the CLI: the entry point calls provideCredentialBackends(defaultCatalog.credentials) (builtins/index.ts) before running a command');
  }
  return provided;
}
