/**
 * GitHub Apps on the simulated forge: Apps with their public keys and installations, App JWTs
 * verified for real (RS256 against the App's public key, `iss` the App id, at most 10 minutes
 * between `iat` and `exp`, not expired, not issued in the future), and installation tokens minted
 * narrowed to the repositories and permissions asked for (a repository the installation does not
 * cover, or a permission above its grant, is the forge's `422`), revocable, and seen by the
 * repository operations: a token reads only the repositories it was minted for.
 *
 * - `apps/get-authenticated` (`GET /app`), `apps/list-installations` (`GET /app/installations`),
 *   `apps/get-repo-installation` (`GET /repos/{owner}/{repo}/installation`): App JWT.
 * - `apps/create-installation-access-token` (`POST /app/installations/{installation_id}/access_tokens`): App JWT.
 * - `apps/revoke-installation-access-token` (`DELETE /installation/token`): the token itself.
 */
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { forgeError, notFound, type ForgeContext, type OperationTable, type SimulatedRequest, type SimulatedResponse } from './operation-table.js';

export type PermissionLevel = 'read' | 'write' | 'admin';

export interface SimulatedInstallation {
  readonly id: number;
  /** The account it is installed on (`acme`). */
  readonly account: string;
  /** `owner/repo` names it covers. */
  readonly repositories: readonly string[];
  readonly permissions: Readonly<Record<string, PermissionLevel>>;
}

export interface SimulatedApp {
  readonly id: number;
  readonly slug: string;
  /** PEM (any format node reads): the public half of the App's key. */
  readonly publicKey: string;
  readonly installations: readonly SimulatedInstallation[];
}

export interface MintedToken {
  readonly token: string;
  readonly appId: number;
  readonly installationId: number;
  readonly repositories: readonly string[];
  readonly permissions: Readonly<Record<string, PermissionLevel>>;
  readonly expiresAt: number;
  revoked: boolean;
}

/** The claims of an App JWT the forge accepted, for tests to check (`iat`, `exp`). */
export interface AcceptedJwt {
  readonly appId: number;
  readonly iat: number;
  readonly exp: number;
  /** The forge's clock when it checked, epoch seconds. */
  readonly at: number;
}

const LEVELS: Readonly<Record<PermissionLevel, number>> = { read: 1, write: 2, admin: 3 };
const TOKEN_LIFETIME_MS = 3_600_000;

export class SimulatedApps {
  /** The forge's clock (epoch ms): tests that move svc's clock move this one with it. */
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  readonly #apps = new Map<number, { readonly app: SimulatedApp; readonly key: KeyObject }>();
  readonly tokens = new Map<string, MintedToken>();
  readonly acceptedJwts: AcceptedJwt[] = [];
  /** Why the last App JWT was refused, for tests and the simulator's log. */
  lastRefusal: string | undefined;

  now(): number {
    return this.#now();
  }

  add(app: SimulatedApp): void {
    this.#apps.set(app.id, { app, key: createPublicKey(app.publicKey) });
  }

  /** The App a valid App JWT names, else undefined (with `lastRefusal` saying why). */
  appOfJwt(credential: string, record = true): SimulatedApp | undefined {
    const refuse = (why: string) => {
      this.lastRefusal = why;
      return undefined;
    };
    const parts = credential.split('.');
    if (parts.length !== 3) return undefined;
    const [head, body, signature] = parts as [string, string, string];
    let header: { alg?: unknown };
    let claims: { iss?: unknown; iat?: unknown; exp?: unknown };
    try {
      header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as typeof header;
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return refuse('not a JWT');
    }
    if (header.alg !== 'RS256') return refuse(`alg ${String(header.alg)} is not RS256`);
    const entry = this.#apps.get(Number(claims.iss));
    if (entry === undefined) return refuse(`no App ${String(claims.iss)}`);
    if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), entry.key, Buffer.from(signature, 'base64url'))) return refuse('bad signature');
    const now = Math.floor(this.#now() / 1000);
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return refuse('iat/exp missing');
    if (claims.exp - claims.iat > 600) return refuse("'Expiration time' claim ('exp') is too far in the future");
    if (claims.exp <= now) return refuse("'Expiration time' claim ('exp') must be a numeric value representing the future time");
    if (claims.iat > now + 60) return refuse("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued");
    if (record) this.acceptedJwts.push({ appId: entry.app.id, iat: claims.iat, exp: claims.exp, at: now });
    return entry.app;
  }

  /** A live (not revoked, not expired) installation token. */
  liveToken(credential: string): MintedToken | undefined {
    const token = this.tokens.get(credential);
    return token === undefined || token.revoked || token.expiresAt <= this.#now() ? undefined : token;
  }

  accepts(credential: string): boolean {
    return this.liveToken(credential) !== undefined || this.appOfJwt(credential, false) !== undefined;
  }

  installation(id: number): { readonly app: SimulatedApp; readonly installation: SimulatedInstallation } | undefined {
    for (const { app } of this.#apps.values()) {
      const installation = app.installations.find((candidate) => candidate.id === id);
      if (installation !== undefined) return { app, installation };
    }
    return undefined;
  }

  /** Tokens minted so far (not revoked ones only when `live`). */
  minted(options: { readonly live?: boolean } = {}): readonly MintedToken[] {
    return [...this.tokens.values()].filter((token) => !options.live || this.liveToken(token.token) !== undefined);
  }
}

function user(forge: ForgeContext, login: string, id: number) {
  const api = `${forge.apiUrl}/users/${login}`;
  return {
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `${forge.webUrl}/avatars/${login}`,
    gravatar_id: '',
    url: api,
    html_url: `${forge.webUrl}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: 'Organization',
    site_admin: false,
  };
}

const CREATED = '2030-01-01T00:00:00Z';

function installationObject(forge: ForgeContext, app: SimulatedApp, installation: SimulatedInstallation) {
  return {
    id: installation.id,
    account: user(forge, installation.account, installation.id * 10),
    repository_selection: 'selected',
    access_tokens_url: `${forge.apiUrl}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${forge.apiUrl}/installation/repositories`,
    html_url: `${forge.webUrl}/organizations/${installation.account}/settings/installations/${installation.id}`,
    app_id: app.id,
    target_id: installation.id * 10,
    target_type: 'Organization',
    permissions: installation.permissions,
    events: ['push', 'pull_request', 'check_run'],
    created_at: CREATED,
    updated_at: CREATED,
    single_file_name: null,
    app_slug: app.slug,
    suspended_by: null,
    suspended_at: null,
  };
}

function credentialOf(request: SimulatedRequest): string | undefined {
  return /^(?:bearer|token)\s+(.+)$/i.exec(String(request.headers['authorization'] ?? ''))?.[1];
}

/** The App an App JWT names, or the forge's 401 for anything else (an installation token, a PAT). */
function withApp(forge: ForgeContext, request: SimulatedRequest, then: (app: SimulatedApp) => SimulatedResponse): SimulatedResponse {
  const credential = credentialOf(request);
  const app = credential === undefined ? undefined : forge.apps.appOfJwt(credential);
  if (app === undefined) return forgeError(401, 'A JSON web token could not be decoded');
  return then(app);
}

export const APP_OPERATIONS: OperationTable = {
  'apps/get-authenticated': (request, forge) =>
    withApp(forge, request, (app) => ({
      status: 200,
      json: {
        id: app.id,
        slug: app.slug,
        node_id: `A_${app.id}`,
        owner: user(forge, 'acme', 1),
        name: app.slug,
        description: null,
        external_url: forge.webUrl,
        html_url: `${forge.webUrl}/apps/${app.slug}`,
        created_at: CREATED,
        updated_at: CREATED,
        permissions: { metadata: 'read', contents: 'read', checks: 'write' },
        events: ['push', 'pull_request', 'check_run'],
        installations_count: app.installations.length,
      },
    })),

  'apps/list-installations': (request, forge) =>
    withApp(forge, request, (app) => ({ status: 200, json: app.installations.map((installation) => installationObject(forge, app, installation)) })),

  'apps/get-repo-installation': (request, forge) =>
    withApp(forge, request, (app) => {
      const name = `${request.params['owner'] ?? ''}/${request.params['repo'] ?? ''}`.toLowerCase();
      const installation = app.installations.find((candidate) => candidate.repositories.some((repository) => repository.toLowerCase() === name));
      return installation === undefined ? notFound() : { status: 200, json: installationObject(forge, app, installation) };
    }),

  'apps/create-installation-access-token': (request, forge) =>
    withApp(forge, request, (app) => {
      const found = forge.apps.installation(Number(request.params['installation_id']));
      if (found === undefined || found.app.id !== app.id) return notFound();
      const { installation } = found;
      const body = (request.body ?? {}) as { repositories?: readonly string[]; permissions?: Readonly<Record<string, PermissionLevel>> };
      const covered = installation.repositories.map((repository) => repository.split('/')[1]?.toLowerCase());
      const asked = body.repositories ?? installation.repositories.map((repository) => repository.split('/')[1] ?? '');
      if (asked.some((name) => !covered.includes(name.toLowerCase()))) {
        return forgeError(422, 'There is at least one repository that does not exist or is not accessible to the parent installation.');
      }
      const permissions = body.permissions ?? installation.permissions;
      for (const [name, level] of Object.entries(permissions)) {
        const granted = installation.permissions[name];
        if (granted === undefined || LEVELS[level] > LEVELS[granted]) return forgeError(422, 'The permissions requested are not granted to this installation.');
      }
      const token = `ghs_${randomBytes(18).toString('base64url')}`;
      const expiresAt = forge.apps.now() + TOKEN_LIFETIME_MS;
      const repositories = installation.repositories.filter((repository) => asked.some((name) => name.toLowerCase() === repository.split('/')[1]?.toLowerCase()));
      forge.apps.tokens.set(token, { token, appId: app.id, installationId: installation.id, repositories, permissions, expiresAt, revoked: false });
      return {
        status: 201,
        json: { token, expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'), permissions, repository_selection: 'selected' },
      };
    }),

  'apps/revoke-installation-access-token': (request, forge) => {
    const credential = credentialOf(request);
    const token = credential === undefined ? undefined : forge.apps.liveToken(credential);
    if (token === undefined) return forgeError(401, 'Bad credentials');
    token.revoked = true;
    return { status: 204 };
  },
};

