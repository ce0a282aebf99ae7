/** Where the engine keeps its own credentials (system token, signing keys, sealed-secret key). */
export interface CredentialStore {
  /** `file`, `memory` or `os`. */
  readonly kind: string;
  /** Whether values survive a restart. */
  readonly persistent: boolean;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
}
