import { createServiceRef } from '../kernel/index.js';

/**
 * svc's credentials on the forge (plugins/forge): GitHub Apps (id, private key, webhook secret;
 * several) and/or a PAT (`SVC_FORGE_TOKEN`). App JWTs, installation tokens narrowed to one
 * repository and a permission set, the in-memory mint ledger of the tokens svc minted, and their
 * revocation. Every call goes through the forge's client and breaker (`coreServices.forgeClients`).
 */
export type PermissionLevel = 'read' | 'write' | 'admin';

/** GitHub's App permissions by name (`contents`, `checks`, `actions`, ...). */
export type AppPermissions = Readonly<Record<string, PermissionLevel>>;

export interface ForgeApp {
  readonly appId: number;
}

export interface RepositoryInstallation {
  readonly appId: number;
  readonly installationId: number;
}

/** What the mint ledger knows of a token svc minted (never the token itself). */
export interface MintRecord {
  readonly appId: number;
  readonly installationId: number;
  /** `owner/repo`, as asked. */
  readonly repository: string;
  /** What the forge granted (it may answer fewer than asked). */
  readonly permissions: AppPermissions;
  /** Epoch ms. */
  readonly expiresAt: number;
}

export interface InstallationToken extends MintRecord {
  readonly token: string;
}

export interface ForgeApps {
  /** The Apps loaded at start, in the order they were stored; empty without any. */
  readonly apps: readonly ForgeApp[];
  /** Whether `SVC_FORGE_TOKEN` is set (the fallback when no App covers a repository). */
  readonly hasPat: boolean;
  /** An App JWT (RS256, `iat` 60 s in the past, 10 minutes in all). NotFoundError for an App svc does not hold. */
  appJwt(appId: number): Promise<string>;
  /** The App installation covering `owner/repo` (`GET /repos/{o}/{r}/installation`, asked of each App in turn, cached); undefined when none does. */
  installationFor(repository: string): Promise<RepositoryInstallation | undefined>;
  /**
   * A token of the installation covering `repository`, narrowed to it and `permissions`.
   * Shared (cached until 5 minutes before it expires) unless `exclusive`: a job's token is
   * exclusive, so revoking it when the job ends takes nothing from anyone else.
   * NotFoundError when no App covers the repository; InputError when the installation does
   * not grant a permission asked for.
   */
  installationToken(repository: string, permissions: AppPermissions, options?: { readonly exclusive?: boolean }): Promise<InstallationToken>;
  /** The mint ledger: what svc minted this token for, while it is live; undefined for any other token. */
  recognise(token: string): MintRecord | undefined;
  /** Revokes a token svc minted (`DELETE /installation/token`) and forgets it; false for a token svc did not mint. */
  revoke(token: string): Promise<boolean>;
  /** The App's webhook secret (for signature checks), undefined when it has none. */
  webhookSecret(appId: number): string | undefined;
}

export const forgeAppsServiceRef = createServiceRef<ForgeApps>({ id: 'forge.apps' });
