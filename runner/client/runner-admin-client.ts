import type { TaskAgentPublicKey } from '../../core/protocol/index.js';
import type { AgentLabel } from './agents-client.js';
import { randomBackoff, sleep } from './backoff.js';
import type { HttpAnswer, HttpClient, HttpRequest } from './http-client.js';
import { RunnerHttpError, RunnerNetworkError, RunnerProtocolError } from './http-error.js';
import { isHostedServer } from './runner-registration.js';
import { wireValidator } from './wire-schema.js';

/** A runner group of the runner-admin API (`default` is the internal group). */
export interface RunnerGroup {
  readonly id: number;
  readonly name: string;
  readonly default?: boolean;
  readonly is_hosted?: boolean;
}

/** What `POST actions/runners/register` answers (§1.7 step 3). */
export interface RegisteredRunner {
  readonly id: number;
  readonly name: string;
  readonly authorization: {
    readonly authorization_url: string;
    readonly server_url: string;
    readonly client_id: string;
    readonly legacy_authorization_url?: string | null;
  };
}

export interface RunnerAdminRegistration {
  readonly groupId: number;
  readonly name: string;
  readonly version: string;
  readonly ephemeral: boolean;
  readonly disableUpdate: boolean;
  readonly labels: readonly AgentLabel[];
  readonly publicKey: TaskAgentPublicKey;
  /** Set to replace that runner. */
  readonly replaceId?: number;
}

const checkGroups = wireValidator<{ runner_groups: RunnerGroup[] }>({
  type: 'object',
  required: ['runner_groups'],
  properties: { runner_groups: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
});
const checkRunners = wireValidator<{ runners: { id: number; name: string }[] }>({
  type: 'object',
  required: ['runners'],
  properties: { runners: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
});
const checkRegistered = wireValidator<RegisteredRunner>({
  type: 'object',
  required: ['id', 'name', 'authorization'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    authorization: {
      type: 'object',
      required: ['authorization_url', 'server_url', 'client_id'],
      properties: {
        authorization_url: { type: 'string', minLength: 1 },
        server_url: { type: 'string', minLength: 1 },
        client_id: { type: 'string', minLength: 1 },
        legacy_authorization_url: { type: ['string', 'null'] },
      },
    },
  },
});

/** `{api}`: `https://api.<host>` for hosted hosts, `<origin>/api/v3` otherwise (port kept, as for runner-registration). */
export function apiBase(githubUrl: URL): string {
  return isHostedServer(githubUrl) ? `${githubUrl.protocol}//api.${githubUrl.host}` : `${githubUrl.origin}/api/v3`;
}

/** `{entity}` (§1.7): the `--url` scope as an API path. */
export function entityBase(githubUrl: URL): string {
  const parts = githubUrl.pathname.split('/').filter((part) => part !== '');
  const api = apiBase(githubUrl);
  if (parts.length === 1) return `${api}/orgs/${encodeURIComponent(parts[0] ?? '')}/actions`;
  if (parts.length === 2 && parts[0]?.toLowerCase() === 'enterprises') return `${api}/enterprises/${encodeURIComponent(parts[1] ?? '')}/actions`;
  if (parts.length === 2) return `${api}/repos/${encodeURIComponent(parts[0] ?? '')}/${encodeURIComponent(parts[1] ?? '')}/actions`;
  throw new RunnerProtocolError(`--url ${githubUrl.href} must name an organisation, a repository or an enterprise (https://host/<org>, /<owner>/<repo>, /enterprises/<slug>)`);
}

/** The .NET XML form of the public key the runner-admin API takes. */
export function xmlPublicKey(key: TaskAgentPublicKey): string {
  return `<RSAKeyValue><Modulus>${key.modulus}</Modulus><Exponent>${key.exponent}</Exponent></RSAKeyValue>`;
}

/**
 * The runner-admin ("v2") registration (§1.7), used when runner-registration answers
 * `use_v2_flow: true`: every call with `RemoteAuth <token>`, 3 attempts 1–5 s apart, a 404 (and
 * here any other 4xx but 429) fatal at once.
 */
export class RunnerAdminClient {
  readonly #entity: string;
  readonly #api: string;

  constructor(
    private readonly http: HttpClient,
    readonly githubUrl: URL,
    private readonly token: string,
  ) {
    this.#entity = entityBase(githubUrl);
    this.#api = apiBase(githubUrl);
  }

  async runnerGroups(): Promise<RunnerGroup[]> {
    const answer = await this.#call({ method: 'GET', url: `${this.#entity}/runner-groups` });
    return checkGroups(answer.body, 'the answer of GET runner-groups').runner_groups;
  }

  async findRunners(name: string): Promise<{ id: number; name: string }[]> {
    const answer = await this.#call({ method: 'GET', url: `${this.#entity}/runners?name=${encodeURIComponent(name)}` });
    return checkRunners(answer.body, 'the answer of GET runners').runners;
  }

  async register(registration: RunnerAdminRegistration): Promise<RegisteredRunner> {
    const json = {
      url: this.githubUrl.href.replace(/\/+$/, ''),
      group_id: registration.groupId,
      name: registration.name,
      version: registration.version,
      updates_disabled: registration.disableUpdate,
      ephemeral: registration.ephemeral,
      labels: registration.labels,
      public_key: xmlPublicKey(registration.publicKey),
      ...(registration.replaceId === undefined ? {} : { runner_id: registration.replaceId, replace: true }),
    };
    const answer = await this.#call({ method: 'POST', url: `${this.#api}/actions/runners/register`, json });
    return checkRegistered(answer.body, 'the answer of POST actions/runners/register');
  }

  async deleteRunner(runnerId: number): Promise<void> {
    await this.#call({ method: 'DELETE', url: `${this.#entity}/runners/${runnerId}` });
  }

  async #call(request: HttpRequest): Promise<HttpAnswer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.http.call({ ...request, headers: { ...request.headers, authorization: `RemoteAuth ${this.token}` } });
      } catch (error) {
        const final = error instanceof RunnerHttpError && error.status >= 400 && error.status < 500 && error.status !== 429;
        if (final || attempt >= 3 || !(error instanceof RunnerHttpError || error instanceof RunnerNetworkError)) throw error;
        await sleep(randomBackoff(1000, 5000));
      }
    }
  }
}
