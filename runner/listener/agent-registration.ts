import type { KeyObject } from 'node:crypto';
import { taskAgentPublicKeyFromKey } from '../../core/protocol/index.js';
import {
  AgentsClient,
  OAuthTokenError,
  RunnerAdminClient,
  RunnerTokenSource,
  VssConnection,
  agentFlag,
  agentProperty,
  type AgentLabel,
  type HttpClient,
  type RunnerIdentity,
  type TenantCredential,
} from '../client/index.js';
import type { RunnerCredentials } from '../config/index.js';
import type { Terminal } from './terminal.js';

/** Configuration stopped with a message for the person at the terminal. */
export class ConfigureError extends Error {
  override readonly name = 'ConfigureError';
}

export interface RegistrationRequest {
  readonly githubUrl: URL;
  /** The registration token (runner-admin calls carry it). */
  readonly token: string;
  readonly tenant: TenantCredential;
  readonly name: string;
  readonly labels: readonly AgentLabel[];
  readonly replace: boolean;
  readonly ephemeral: boolean;
  readonly key: () => Promise<KeyObject>;
  readonly identity: RunnerIdentity;
  readonly term: Terminal;
}

/** What registration leaves for `.runner` and `.credentials`. */
export interface Registration {
  readonly agentId: number;
  readonly poolId: number;
  readonly poolName: string;
  readonly credentials: RunnerCredentials;
  readonly useV2Flow: boolean;
  readonly serverUrlV2: string | undefined;
  readonly useRunnerAdminFlow: boolean;
  readonly key: KeyObject;
}

// svc-runner never replaces its own binary (SPEC): it registers with updates disabled.
const DISABLE_UPDATE = true;

function systemLabels(identity: RunnerIdentity): AgentLabel[] {
  return ['self-hosted', identity.os, identity.architecture].map((name) => ({ id: 0, name, type: 'system' }));
}

function exists(request: RegistrationRequest): never {
  throw new ConfigureError(`Runner '${request.name}' already exists. Use --replace to replace it, or choose another --name.`);
}

function checkEcho(request: RegistrationRequest, echoed: { readonly ephemeral?: boolean | null; readonly disableUpdate?: boolean | null }): void {
  if (echoed.disableUpdate !== DISABLE_UPDATE) throw new ConfigureError("The GitHub server does not support configuring a self-hosted runner with 'DisableUpdate' flag.");
  if (request.ephemeral && echoed.ephemeral !== true) throw new ConfigureError("The GitHub server does not support configuring a self-hosted runner with 'Ephemeral' flag.");
}

/**
 * The agents-resource path (§1.3-§1.5): connectionData with the tenant token, the RSA key, the
 * internal pool, the agent by name, create or replace; `properties` say the flow.
 */
export async function registerWithAgents(http: HttpClient, request: RegistrationRequest): Promise<Registration> {
  const { term, identity } = request;
  const connection = new VssConnection(http, request.tenant.tenantUrl, { kind: 'bearer', token: request.tenant.token });
  await connection.locations();
  term.line();
  term.success('Connected to GitHub');
  const key = await request.key();

  term.section('Runner Registration');
  const agents = new AgentsClient(connection);
  const pool = (await agents.pools()).find((p) => p.isInternal === true && p.isHosted !== true);
  if (pool === undefined) throw new ConfigureError('Could not find any self-hosted runner groups. Contact support.');
  const update = {
    name: request.name,
    version: identity.version,
    osDescription: identity.osDescription,
    ephemeral: request.ephemeral,
    disableUpdate: DISABLE_UPDATE,
    publicKey: taskAgentPublicKeyFromKey(key),
    labels: [...systemLabels(identity), ...request.labels],
  };
  const [found] = await agents.findByName(request.name);
  if (found !== undefined) {
    term.line('A runner exists with the same name');
    if (!request.replace) exists(request);
  }
  const agent = found === undefined ? await agents.add(pool.id, update) : await agents.replace(pool.id, found, update);
  checkEcho(request, agent);
  term.success(found === undefined ? 'Runner successfully added' : 'Successfully replaced the runner');

  const clientId = agent.authorization?.clientId ?? '';
  const authorizationUrl = agent.authorization?.authorizationUrl ?? '';
  if (clientId === '' || /^0{8}-0{4}-0{4}-0{4}-0{12}$/.test(clientId) || authorizationUrl === '') {
    throw new ConfigureError('The server did not give the runner an OAuth client (authorization.clientId and authorizationUrl): Message queue listen OAuth token.');
  }
  const serverUrlV2 = agentProperty(agent, 'ServerUrlV2');
  return {
    agentId: agent.id,
    poolId: pool.id,
    poolName: pool.name,
    credentials: { scheme: 'OAuth', clientId, authorizationUrl: new URL(authorizationUrl).href, requireFipsCryptography: agentFlag(agent, 'RequireFipsCryptography', true) },
    useV2Flow: agentFlag(agent, 'UseV2Flow', false),
    serverUrlV2: typeof serverUrlV2 === 'string' && serverUrlV2 !== '' ? serverUrlV2 : undefined,
    useRunnerAdminFlow: false,
    key,
  };
}

/**
 * The runner-admin path (§1.7): runner groups, the runner by name, `actions/runners/register`
 * with the XML public key; the answer names the OAuth client and the broker (`useV2Flow`).
 */
export async function registerWithRunnerAdmin(http: HttpClient, request: RegistrationRequest): Promise<Registration> {
  const { term, identity } = request;
  term.line();
  term.success('Connected to GitHub');
  const key = await request.key();

  term.section('Runner Registration');
  const admin = new RunnerAdminClient(http, request.githubUrl, request.token);
  const group = (await admin.runnerGroups()).find((g) => g.default === true && g.is_hosted !== true);
  if (group === undefined) throw new ConfigureError('Could not find any self-hosted runner groups. Contact support.');
  const [found] = await admin.findRunners(request.name);
  if (found !== undefined) {
    term.line('A runner exists with the same name');
    if (!request.replace) exists(request);
  }
  const runner = await admin.register({
    groupId: group.id,
    name: request.name,
    version: identity.version,
    ephemeral: request.ephemeral,
    disableUpdate: DISABLE_UPDATE,
    labels: [...systemLabels(identity), ...request.labels],
    publicKey: taskAgentPublicKeyFromKey(key),
    ...(found === undefined ? {} : { replaceId: found.id }),
  });
  term.success(found === undefined ? 'Runner successfully added' : 'Successfully replaced the runner');
  const { authorization } = runner;
  const legacyUrl = authorization.legacy_authorization_url ?? '';
  const credentials: RunnerCredentials = {
    scheme: 'OAuth',
    clientId: authorization.client_id,
    // With a legacy URL it is the primary token URL, the runner-admin one the V2 URL (§1.7).
    authorizationUrl: new URL(legacyUrl === '' ? authorization.authorization_url : legacyUrl).href,
    // The runner's own TaskAgent has no RequireFipsCryptography property here: it defaults to true.
    requireFipsCryptography: true,
    ...(legacyUrl === '' ? {} : { authorizationUrlV2: authorization.authorization_url, enableAuthMigrationByDefault: true }),
  };
  return {
    agentId: runner.id,
    poolId: group.id,
    poolName: group.name,
    credentials,
    useV2Flow: true,
    serverUrlV2: authorization.server_url,
    useRunnerAdminFlow: true,
    key,
  };
}

/** "Runner connection is good": the runner's own credential gets a token and lists the pools (§1.1 step 6). */
export async function testConnection(http: HttpClient, serverUrl: string, registration: Registration, term: Terminal): Promise<void> {
  const { credentials } = registration;
  const tokens = new RunnerTokenSource(http, {
    clientId: credentials.clientId,
    authorizationUrl: credentials.authorizationUrl,
    requireFipsCryptography: credentials.requireFipsCryptography,
    key: registration.key,
  });
  try {
    await new AgentsClient(new VssConnection(http, serverUrl, { kind: 'runner', tokens })).pools();
  } catch (error) {
    if (error instanceof OAuthTokenError && error.message.includes('Current server time is')) {
      throw new ConfigureError("The local machine's clock may be out of sync with the server time by more than five minutes. Please sync your clock with your domain or internet time and try again.");
    }
    throw error;
  }
  term.success('Runner connection is good');
}
