import type { CredentialStore } from './credential-store.js';

/**
 * The signing keys and secrets every node of one installation must hold alike (the system token,
 * URL and token signing keys, the OIDC key ring). On a store several nodes share (PostgreSQL)
 * they live in the database, sealed under the cluster key; on a single-node store they are the
 * node's credential store. Shaped like a `CredentialStore`, plus a conditional write so that two
 * nodes racing to create or rotate a key keep one value.
 */
export interface SharedKeys extends CredentialStore {
  /** True when the keys live in the shared store (every node reads what any node wrote). */
  readonly shared: boolean;
  /**
   * Writes `value` only if the entry still holds `expected` (`undefined`: no entry yet), and
   * returns what the entry holds afterwards: `value` when this write won, else what another
   * writer put there first (`undefined` if it was deleted meanwhile).
   */
  compareAndSet(name: string, expected: string | undefined, value: string): Promise<string | undefined>;
}
