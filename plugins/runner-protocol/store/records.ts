/** What the plugin knows about runner groups and runners, in its own terms (not the wire's). */

export type LabelType = 'system' | 'user';

export interface AgentLabel {
  readonly name: string;
  readonly type: LabelType;
}

/** The runner's RSA public key as it uploads it: base64 of big-endian unsigned integers. */
export interface RsaPublicKey {
  readonly exponent: string;
  readonly modulus: string;
}

export type AgentStatus = 'offline' | 'online' | 'busy';

export interface PoolRecord {
  readonly id: number;
  readonly name: string;
  readonly isInternal: boolean;
  readonly isHosted: boolean;
}

export interface AgentRecord {
  readonly id: number;
  readonly poolId: number;
  readonly name: string;
  readonly version: string;
  readonly osDescription: string;
  readonly labels: readonly AgentLabel[];
  readonly publicKey: RsaPublicKey;
  readonly clientId: string;
  readonly authorizationUrl: string;
  readonly ephemeral: boolean;
  readonly disableUpdate: boolean;
  readonly status: AgentStatus;
  readonly scopeUrl: string | null;
  /** The node whose built-in pool minted it; null for every other runner. */
  readonly homeNode: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What registration (create, replace, JIT) decides about a runner. */
export interface AgentDraft {
  readonly poolId: number;
  readonly name: string;
  readonly version: string;
  readonly osDescription: string;
  readonly labels: readonly AgentLabel[];
  readonly publicKey: RsaPublicKey;
  readonly clientId: string;
  readonly authorizationUrl: string;
  readonly ephemeral: boolean;
  readonly disableUpdate: boolean;
  readonly scopeUrl: string | null;
  readonly homeNode?: string | null;
}
