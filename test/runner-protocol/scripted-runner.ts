/**
 * A scripted runner that configures itself the way the official runner does
 * (actions/runner src/Runner.Listener/Configuration/ConfigurationManager.cs, RUNNER-PROTOCOL.md §1):
 * registration → connectionData → RSA key → pools → agent lookup → create or replace → the legacy
 * connection test (401 challenge → client assertion → token → pools again); or, when registration
 * answers `use_v2_flow: true`, the runner-admin path (§1.7): RSA key → runner-groups →
 * runners?name= → runners/register, and no connection test.
 */
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../../core/ports/index.js';
import { testRsaKey } from '../support/test-rsa-keys.js';
import { RunnerAdminClient, xmlPublicKey, type RegisteredRunnerWire, type RunnerGroupWire } from './runner-admin-client.js';
import { expandRoute, locationsOf, send, unwrap, vssUrl, type HttpResult, type ResourceLocation } from './vss-client.js';

export const LOCATION = {
  pools: 'a8c47e17-4d56-4a56-92bb-de7ea7dc65be',
  agents: 'e298ef32-5878-4cab-993c-043836571f42',
} as const;

/** What `config.sh` leaves behind (§1.8), minus the files themselves. */
export interface RunnerConfig {
  readonly settings: {
    readonly agentId: number;
    readonly agentName: string;
    readonly poolId: number;
    readonly poolName: string;
    readonly serverUrl: string;
    readonly gitHubUrl: string;
    readonly ephemeral: boolean;
    readonly useV2Flow: boolean;
    readonly serverUrlV2: string | undefined;
    /** Written only when true (configured through the runner-admin path; removal goes there too). */
    readonly useRunnerAdminFlow?: boolean;
  };
  readonly credentials: { readonly clientId: string; readonly authorizationUrl: string; readonly requireFipsCryptography: boolean };
  readonly key: KeyObject;
}

export interface ConfigureOptions {
  readonly replace?: boolean;
  readonly ephemeral?: boolean;
  readonly disableUpdate?: boolean;
  readonly labels?: readonly string[];
  /** Reuse a key (the runner keeps `.credentials_rsaparams` if it exists). */
  readonly key?: KeyObject;
  /**
   * Take the legacy configure path even when registration answers `use_v2_flow: true`: what a
   * runner configured before SVC_RUNNER_FLOW=broker did (the server answered false then).
   */
  readonly legacyPath?: boolean;
}

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A failure the runner would print and stop on. */
export class ConfigureError extends Error {
  constructor(
    message: string,
    readonly result?: HttpResult,
  ) {
    super(message);
  }
}

export interface AssertionOptions {
  readonly clientId: string;
  readonly audience: string;
  readonly key: KeyObject;
  readonly nowMs: number;
  readonly alg?: 'RS256' | 'PS256';
  /** Claims replaced or added (e.g. `{exp: ...}`); the runner itself sends none of these. */
  readonly overrides?: Record<string, unknown>;
}

/**
 * The client assertion as the runner signs it (§1.9.2): header `{"typ":"JWT","alg":...}`, claims in
 * the order sub, jti, iss, aud, nbf, exp, no iat; exp = nbf + 5 minutes.
 */
export async function clientAssertion(options: AssertionOptions): Promise<string> {
  const nbf = Math.floor(options.nowMs / 1000);
  const claims = { sub: options.clientId, jti: randomUUID(), iss: options.clientId, aud: options.audience, nbf, exp: nbf + 300, ...options.overrides };
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg: options.alg ?? 'RS256' }).sign(options.key);
}

/** A runner's fresh 2048-bit key: one no other runner of this test process has (test/support/test-rsa-keys.ts). */
export function newRunnerKey(): KeyObject {
  return testRsaKey();
}

/** TaskAgentPublicKey: big-endian exponent and modulus, base64. */
export function publicKeyWire(key: KeyObject): { exponent: string; modulus: string } {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return { exponent: Buffer.from(String(jwk.e), 'base64url').toString('base64'), modulus: Buffer.from(String(jwk.n), 'base64url').toString('base64') };
}

function authority(url: string): string {
  return new URL(url).host;
}

export class ScriptedRunner {
  /** `METHOD /path status` of every call, in order. */
  readonly calls: string[] = [];

  constructor(
    readonly options: { readonly url: string; readonly token: string; readonly name: string; readonly clock: Clock; readonly version?: string },
  ) {}

  /**
   * `POST {origin}/api/v3/actions/runner-registration` with `RemoteAuth` (GHES-style, §0.7, §1.2).
   * The official runner builds this URL from the `--url` scheme and host only (ConfigurationManager,
   * GetTenantCredential: `UriBuilder.Host`), so it drops a non-default port; this client keeps the
   * port so it can reach a test server on an ephemeral one.
   */
  async registration(event: 'register' | 'remove', token = this.options.token): Promise<{ tenantUrl: string; token: string; useRunnerAdminFlow: boolean }> {
    const origin = new URL(this.options.url).origin;
    const result = await send(this.calls, 'POST', `${origin}/api/v3/actions/runner-registration`, {
      headers: { authorization: `RemoteAuth ${token}` },
      json: { url: this.options.url, runner_event: event },
    });
    if (result.status < 200 || result.status > 299) throw new ConfigureError(`Http response code: ${result.status} from 'POST runner-registration'`, result);
    const body = result.body as { url?: string; token_schema?: string; token?: string; use_v2_flow?: boolean };
    assert.equal(body.token_schema?.toLowerCase(), 'oauthaccesstoken', 'token_schema');
    assert.ok(body.url && body.token, 'url and token');
    // The GHES authority rule (ConfigurationManager: IsSubdomainOf(actions authority, GHES authority)).
    const tenant = authority(body.url);
    const github = authority(this.options.url);
    assert.ok(tenant === github || tenant.endsWith(`.${github}`), `tenant ${body.url} is on the authority of ${this.options.url}`);
    return { tenantUrl: body.url, token: body.token, useRunnerAdminFlow: body.use_v2_flow === true };
  }

  async connectionData(tenantUrl: string): Promise<Map<string, ResourceLocation>> {
    const result = await send(this.calls, 'GET', vssUrl(tenantUrl, '_apis/connectionData', { connectOptions: '1', lastChangeId: '-1', lastChangeId64: '-1' }));
    assert.equal(result.status, 200, 'connectionData is served anonymously');
    return locationsOf(result.body);
  }

  /** A VSS call by location id, as the runner's TaskAgentHttpClient makes it. */
  async call(
    locations: Map<string, ResourceLocation>,
    tenantUrl: string,
    request: { method: string; location: string; route?: Record<string, string | number>; query?: Record<string, string>; json?: unknown; bearer?: string },
  ): Promise<HttpResult> {
    const location = locations.get(request.location);
    assert.ok(location, `connectionData advertises location ${request.location}`);
    const relative = expandRoute(location.routeTemplate, request.route ?? {}, location.area, location.resource);
    const headers: Record<string, string> = request.bearer === undefined ? {} : { authorization: `Bearer ${request.bearer}` };
    return send(this.calls, request.method, vssUrl(tenantUrl, relative, request.query), { headers, ...(request.json === undefined ? {} : { json: request.json }) });
  }

  /** The whole unattended `config.sh` (§1.1 order of calls). */
  async configure(options: ConfigureOptions = {}): Promise<RunnerConfig> {
    const { tenantUrl, token, useRunnerAdminFlow } = await this.registration('register');
    if (useRunnerAdminFlow && options.legacyPath !== true) return this.configureRunnerAdmin(tenantUrl, options);
    const locations = await this.connectionData(tenantUrl);
    const key = options.key ?? newRunnerKey();

    const pools = await this.call(locations, tenantUrl, { method: 'GET', location: LOCATION.pools, query: { poolType: 'Automation' }, bearer: token });
    assert.equal(pools.status, 200, `pools: ${JSON.stringify(pools.body)}`);
    const pool = unwrap<{ id: number; name: string; isInternal: boolean; isHosted: boolean }>(pools.body).find((p) => p.isInternal && !p.isHosted);
    if (!pool) throw new ConfigureError('Could not find any self-hosted runner groups. Contact support.');

    const found = await this.call(locations, tenantUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: this.options.name }, bearer: token });
    assert.equal(found.status, 200, `agents lookup: ${JSON.stringify(found.body)}`);
    const existing = unwrap<Record<string, unknown> & { id: number }>(found.body)[0];

    const labels = runnerLabels(options);
    const update = {
      version: this.options.version ?? '2.337.0',
      osDescription: 'Ubuntu 24.04.1 LTS',
      ephemeral: options.ephemeral ?? false,
      disableUpdate: options.disableUpdate ?? false,
      maxParallelism: 1,
      authorization: { publicKey: publicKeyWire(key) },
      labels,
    };
    let saved: HttpResult;
    if (existing) {
      if (!options.replace) throw new ConfigureError(`A runner exists with the same name ${this.options.name}.`);
      saved = await this.call(locations, tenantUrl, { method: 'PUT', location: LOCATION.agents, route: { poolId: pool.id, agentId: existing.id }, json: { ...existing, ...update }, bearer: token });
    } else {
      saved = await this.call(locations, tenantUrl, {
        method: 'POST',
        location: LOCATION.agents,
        route: { poolId: pool.id },
        json: { id: 0, name: this.options.name, status: 0, provisioningState: null, createdOn: '0001-01-01T00:00:00', ...update },
        bearer: token,
      });
    }
    if (saved.status !== 200) throw new ConfigureError(`Failed to ${existing ? 'replace' : 'add'} the runner`, saved);
    const agent = saved.body as {
      id: number;
      ephemeral?: boolean;
      disableUpdate?: boolean;
      authorization?: { clientId?: string; authorizationUrl?: string };
      properties?: Record<string, unknown>;
    };
    if ((options.disableUpdate ?? false) && agent.disableUpdate !== true) throw new ConfigureError("The GitHub server does not support configuring a self-hosted runner with 'DisableUpdate' flag.");
    if ((options.ephemeral ?? false) && agent.ephemeral !== true) throw new ConfigureError("The GitHub server does not support configuring a self-hosted runner with 'Ephemeral' flag.");
    const clientId = agent.authorization?.clientId;
    const authorizationUrl = agent.authorization?.authorizationUrl;
    if (!clientId || clientId === '00000000-0000-0000-0000-000000000000' || !authorizationUrl) throw new ConfigureError('Message queue listen OAuth token.');
    const requireFips = agent.properties?.['RequireFipsCryptography'] ?? true;
    const config: RunnerConfig = {
      settings: {
        agentId: agent.id,
        agentName: this.options.name,
        poolId: pool.id,
        poolName: pool.name,
        serverUrl: tenantUrl,
        gitHubUrl: this.options.url,
        ephemeral: options.ephemeral ?? false,
        useV2Flow: agent.properties?.['UseV2Flow'] === true,
        serverUrlV2: typeof agent.properties?.['ServerUrlV2'] === 'string' ? (agent.properties['ServerUrlV2'] as string) : undefined,
      },
      credentials: { clientId, authorizationUrl: new URL(authorizationUrl).href, requireFipsCryptography: requireFips === true },
      key,
    };
    if (!config.settings.useV2Flow) await this.testConnection(config);
    return config;
  }

  /** The runner-admin path (§1.7), after a registration that answered `use_v2_flow: true`. */
  async configureRunnerAdmin(tenantUrl: string, options: ConfigureOptions = {}): Promise<RunnerConfig> {
    const admin = new RunnerAdminClient(this.calls, this.options.url, this.options.token);
    const key = options.key ?? newRunnerKey();
    const groups = await admin.runnerGroups();
    if (groups.status !== 200) throw new ConfigureError(`Http response code: ${groups.status} from 'GET runner-groups'`, groups);
    const pool = ((groups.body as { runner_groups?: RunnerGroupWire[] }).runner_groups ?? []).find((group) => group.default && !group.is_hosted);
    if (!pool) throw new ConfigureError('Could not find any self-hosted runner groups. Contact support.');

    const found = await admin.runnersByName(this.options.name);
    if (found.status !== 200) throw new ConfigureError(`Http response code: ${found.status} from 'GET runners'`, found);
    const existing = ((found.body as { runners?: { id: number; name: string }[] }).runners ?? [])[0];
    if (existing && !options.replace) throw new ConfigureError(`A runner exists with the same name ${this.options.name}.`);
    const saved = await admin.register({
      url: this.options.url,
      group_id: pool.id,
      name: this.options.name,
      version: this.options.version ?? '2.337.0',
      updates_disabled: options.disableUpdate ?? false,
      ephemeral: options.ephemeral ?? false,
      labels: runnerLabels(options),
      public_key: xmlPublicKey(key),
      ...(existing ? { runner_id: existing.id, replace: true } : {}),
    });
    if (saved.status < 200 || saved.status > 299) throw new ConfigureError(`Failed to ${existing ? 'replace' : 'add'} the runner`, saved);
    const runner = saved.body as RegisteredRunnerWire;
    const clientId = runner.authorization?.client_id;
    const authorizationUrl = runner.authorization?.authorization_url;
    const serverUrlV2 = runner.authorization?.server_url;
    // `new Guid(client_id)` and the Uri properties: anything else fails the configuration.
    if (!clientId || !GUID.test(clientId) || clientId === EMPTY_GUID || !authorizationUrl) throw new ConfigureError('Message queue listen OAuth token.');
    assert.ok(serverUrlV2, 'server_url becomes serverUrlV2');
    assert.equal(runner.authorization?.legacy_authorization_url ?? null, null, 'no auth migration');
    return {
      settings: {
        agentId: runner.id,
        agentName: this.options.name,
        poolId: pool.id,
        poolName: pool.name,
        serverUrl: tenantUrl,
        gitHubUrl: this.options.url,
        ephemeral: options.ephemeral ?? false,
        useV2Flow: true,
        serverUrlV2,
        useRunnerAdminFlow: true,
      },
      // The runner's own agent object carries no RequireFipsCryptography property: the default
      // (true) is stored, so it signs its assertions with PS256.
      credentials: { clientId, authorizationUrl: new URL(authorizationUrl).href, requireFipsCryptography: true },
      key,
    };
  }

  /** "Runner connection is good": connectionData, pools without a token (401 challenge), token, pools again. */
  async testConnection(config: RunnerConfig): Promise<string> {
    const locations = await this.connectionData(config.settings.serverUrl);
    const challenged = await this.call(locations, config.settings.serverUrl, { method: 'GET', location: LOCATION.pools, query: { poolType: 'Automation' } });
    assert.equal(challenged.status, 401, 'an anonymous call is challenged');
    assert.match(challenged.headers.get('www-authenticate') ?? '', /Bearer/, 'the challenge names Bearer');
    const accessToken = await this.accessToken(config);
    const pools = await this.call(locations, config.settings.serverUrl, { method: 'GET', location: LOCATION.pools, query: { poolType: 'Automation' }, bearer: accessToken });
    assert.equal(pools.status, 200, `pools with the access token: ${JSON.stringify(pools.body)}`);
    return accessToken;
  }

  /** `POST <authorizationUrl>` with the client assertion (§1.9.2); the raw answer. */
  async requestToken(config: RunnerConfig, assertion?: string): Promise<HttpResult> {
    const signed =
      assertion ??
      (await clientAssertion({
        clientId: config.credentials.clientId,
        audience: config.credentials.authorizationUrl,
        key: config.key,
        nowMs: this.options.clock.now(),
        alg: config.credentials.requireFipsCryptography ? 'PS256' : 'RS256',
      }));
    return send(this.calls, 'POST', config.credentials.authorizationUrl, {
      form: { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: signed },
    });
  }

  async accessToken(config: RunnerConfig): Promise<string> {
    const result = await this.requestToken(config);
    assert.equal(result.status, 200, `token exchange: ${JSON.stringify(result.body)}`);
    const token = (result.body as { access_token?: unknown }).access_token;
    assert.ok(typeof token === 'string' && token !== '', 'access_token');
    return token;
  }

  /**
   * `config.sh remove --token` (§1.11): registration (remove) → connectionData → lookup → DELETE
   * agents/0/<id>; a runner configured through the runner-admin path: `DELETE {entity}/runners/<id>`.
   */
  async remove(token = this.options.token, config?: RunnerConfig): Promise<void> {
    if (config?.settings.useRunnerAdminFlow === true) {
      const deleted = await new RunnerAdminClient(this.calls, this.options.url, token).deleteRunner(config.settings.agentId);
      if (deleted.status < 200 || deleted.status > 299) throw new ConfigureError('Failed: Removing runner from the server', deleted);
      return;
    }
    const tenant = await this.registration('remove', token);
    const locations = await this.connectionData(tenant.tenantUrl);
    const found = await this.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: this.options.name }, bearer: tenant.token });
    assert.equal(found.status, 200);
    const agent = unwrap<{ id: number }>(found.body)[0];
    if (!agent) return;
    const deleted = await this.call(locations, tenant.tenantUrl, { method: 'DELETE', location: LOCATION.agents, route: { poolId: 0, agentId: agent.id }, bearer: tenant.token });
    if (deleted.status < 200 || deleted.status > 299) throw new ConfigureError('Failed to remove the runner', deleted);
  }
}

/** Default labels (self-hosted, OS, architecture) and the user's, as the runner adds them. */
function runnerLabels(options: ConfigureOptions): { id: number; name: string; type: string }[] {
  return [
    { id: 0, name: 'self-hosted', type: 'system' },
    { id: 0, name: 'Linux', type: 'system' },
    { id: 0, name: 'X64', type: 'system' },
    ...(options.labels ?? []).map((name) => ({ id: 0, name, type: 'user' })),
  ];
}
