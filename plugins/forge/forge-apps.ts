/**
 * The `ForgeApps` service (core/ports forge-apps.ts) over the Apps loaded at start: App JWTs
 * (app-key.ts), the installation covering a repository (cached), installation tokens minted on
 * the forge's client (so through its breaker) and narrowed to one repository and a permission
 * set, a token cache, the mint ledger, and revocation.
 *
 * Not `@octokit/auth-app`: it shares one pending mint among all concurrent asks with the same
 * installation, repositories and permissions, process-wide — two jobs asking at once would get
 * the same "exclusive" token, and revoking one job's token would cut the other off. Its JWTs set
 * `iat` 30 s back where the spec asks 60 s. The mint itself is one documented call.
 *
 * Cache: a shared token is reused until 5 minutes before it expires, and concurrent asks for the
 * same repository and permissions share one mint (the jobs of one push cost one call). Ledger:
 * sha256 of each token svc minted → installation, repository, permissions, expiry; dropped on
 * expiry or revocation. Both are in memory, per node: a restart mints anew, and a token another
 * node minted is not in this node's ledger.
 */
import { createHash } from 'node:crypto';
import { RequestError } from '@octokit/request-error';
import { InputError, NotFoundError, SvcError, UnavailableError, UpstreamError } from '../../core/kernel/index.js';
import { splitRepositoryName, type AppPermissions, type Clock, type ForgeApps, type ForgeClient, type InstallationToken, type MintRecord, type RepositoryInstallation } from '../../core/ports/index.js';
import { signAppJwt } from './app-key.js';
import type { LoadedApp } from './app-store.js';

/** A shared token is not handed out in its last 5 minutes: a job or a call must not see it expire under it. */
export const TOKEN_REUSE_MARGIN_MS = 5 * 60_000;
const INSTALLATION_CACHE_MS = 10 * 60_000;
const NO_INSTALLATION_CACHE_MS = 60_000;

export interface ForgeAppsOptions {
  readonly apps: readonly LoadedApp[];
  readonly client: ForgeClient;
  readonly clock: Clock;
  readonly hasPat: boolean;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const permissionsKey = (permissions: AppPermissions) =>
  Object.entries(permissions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, level]) => `${name}=${level}`)
    .join(',');

/** The forge's refusal as svc's error; the breaker's own error (and other svc errors) as is. */
function forgeFailure(error: unknown, what: string, forge: string): Error {
  if (error instanceof SvcError) return error;
  if (error instanceof RequestError) {
    const said = `${error.status}${error.response === undefined ? '' : `: ${String((error.response.data as { message?: unknown } | undefined)?.message ?? '').slice(0, 200)}`}`;
    if (error.response === undefined) return new UnavailableError(`${forge} is unreachable (${what}: ${error.message})`, { code: 'forge_unavailable', cause: error });
    if (error.status === 401) return new UpstreamError(`${forge} refused svc's App credential (${what}: ${said}); check the App id and its private key (svc setup forge)`, { code: 'forge_auth_failed' });
    if (error.status === 422) return new InputError(`${forge} refused ${what} (${said}); check the App's permissions and the repositories its installation covers`, { code: 'forge_refused' });
    if (error.status === 503) return new UnavailableError(`${forge} is unavailable (${what}: ${said})`, { code: 'forge_unavailable' });
    return new UpstreamError(`${forge} failed (${what}: ${said})`, { code: 'forge_failed' });
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new UnavailableError(`${forge} gave no answer in time (${what})`, { code: 'forge_unavailable', cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function createForgeApps(options: ForgeAppsOptions): ForgeApps & { readonly stats: { mints: number; cacheHits: number } } {
  const { client, clock } = options;
  const forge = `the forge at ${client.apiUrl}`;
  const byId = new Map(options.apps.map((app) => [app.appId, app]));
  const installations = new Map<string, { readonly value: RepositoryInstallation | undefined; readonly until: number }>();
  const shared = new Map<string, Promise<InstallationToken>>();
  const ledger = new Map<string, MintRecord>();
  const stats = { mints: 0, cacheHits: 0 };

  const appOf = (appId: number): LoadedApp => {
    const app = byId.get(appId);
    if (app === undefined) throw new NotFoundError(`svc holds no forge App ${appId} (it has ${byId.size === 0 ? 'none' : [...byId.keys()].join(', ')}); add it with svc setup forge --via app`);
    return app;
  };
  const jwtOf = (appId: number) => signAppJwt(appId, appOf(appId).key, clock.now());

  const sweep = () => {
    const now = clock.now();
    for (const [hash, record] of ledger) if (record.expiresAt <= now) ledger.delete(hash);
  };

  const installationFor = async (repository: string): Promise<RepositoryInstallation | undefined> => {
    const name = splitRepositoryName(repository);
    if (name === undefined) throw new InputError(`'${repository}' is not an owner/repo name`);
    const key = repository.toLowerCase();
    const cached = installations.get(key);
    if (cached !== undefined && cached.until > clock.now()) return cached.value;
    let found: RepositoryInstallation | undefined;
    for (const app of options.apps) {
      try {
        const { data } = await client.request('GET /repos/{owner}/{repo}/installation', { ...name, headers: { authorization: `Bearer ${jwtOf(app.appId).jwt}` } });
        found = { appId: app.appId, installationId: data.id };
        break;
      } catch (error) {
        if (error instanceof RequestError && error.status === 404) continue;
        throw forgeFailure(error, `GET /repos/${repository}/installation as App ${app.appId}`, forge);
      }
    }
    installations.set(key, { value: found, until: clock.now() + (found === undefined ? NO_INSTALLATION_CACHE_MS : INSTALLATION_CACHE_MS) });
    return found;
  };

  const mint = async (repository: string, permissions: AppPermissions): Promise<InstallationToken> => {
    const installation = await installationFor(repository);
    if (installation === undefined) {
      const held = options.apps.length === 0 ? 'svc holds no forge App (svc setup forge --via app)' : `none of svc's Apps (${options.apps.map((app) => app.appId).join(', ')}) is installed on it`;
      throw new NotFoundError(`no App installation covers ${repository}: ${held}`, { code: 'forge_no_installation' });
    }
    const repo = splitRepositoryName(repository)?.repo ?? repository;
    let answer: { readonly token: string; readonly expiresAt: string; readonly permissions: Readonly<Record<string, string>> };
    try {
      const { data } = await client.request('POST /app/installations/{installation_id}/access_tokens', {
        installation_id: installation.installationId,
        repositories: [repo],
        permissions: { ...permissions },
        headers: { authorization: `Bearer ${jwtOf(installation.appId).jwt}` },
      });
      answer = { token: data.token, expiresAt: data.expires_at, permissions: (data.permissions ?? {}) as Readonly<Record<string, string>> };
    } catch (error) {
      throw forgeFailure(error, `POST /app/installations/${installation.installationId}/access_tokens for ${repository}`, forge);
    }
    stats.mints += 1;
    const record: MintRecord = {
      appId: installation.appId,
      installationId: installation.installationId,
      repository,
      permissions: answer.permissions as AppPermissions,
      expiresAt: Date.parse(answer.expiresAt),
    };
    sweep();
    ledger.set(hashOf(answer.token), record);
    return { ...record, token: answer.token };
  };

  return {
    apps: options.apps.map((app) => ({ appId: app.appId })),
    hasPat: options.hasPat,
    stats,
    appJwt: async (appId) => jwtOf(appId).jwt,
    installationFor,
    installationToken: async function installationToken(repository: string, permissions: AppPermissions, mintOptions: { readonly exclusive?: boolean } = {}): Promise<InstallationToken> {
      if (mintOptions.exclusive === true) return mint(repository, permissions);
      const key = `${repository.toLowerCase()}|${permissionsKey(permissions)}`;
      const pending = shared.get(key);
      if (pending !== undefined) {
        const token = await pending.catch(() => undefined);
        if (token !== undefined && token.expiresAt - TOKEN_REUSE_MARGIN_MS > clock.now() && ledger.has(hashOf(token.token))) {
          stats.cacheHits += 1;
          return token;
        }
        if (shared.get(key) !== pending) return installationToken(repository, permissions, mintOptions);
      }
      const minted = mint(repository, permissions);
      shared.set(key, minted);
      minted.catch(() => {
        if (shared.get(key) === minted) shared.delete(key);
      });
      return minted;
    },
    recognise(token) {
      const record = ledger.get(hashOf(token));
      if (record === undefined) return undefined;
      if (record.expiresAt <= clock.now()) {
        ledger.delete(hashOf(token));
        return undefined;
      }
      return record;
    },
    async revoke(token) {
      const hash = hashOf(token);
      if (!ledger.has(hash)) return false;
      try {
        await client.request('DELETE /installation/token', { headers: { authorization: `token ${token}` } });
      } catch (error) {
        // 401: expired or revoked already; the token is dead either way.
        if (!(error instanceof RequestError && error.status === 401)) throw forgeFailure(error, 'DELETE /installation/token', forge);
      }
      ledger.delete(hash);
      for (const [key, pending] of shared) {
        const held = await pending.catch(() => undefined);
        if (held?.token === token) shared.delete(key);
      }
      return true;
    },
    webhookSecret: (appId) => byId.get(appId)?.webhookSecret,
  };
}
