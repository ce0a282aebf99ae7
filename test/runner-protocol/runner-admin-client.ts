/**
 * The official runner's runner-admin ("v2") calls (actions/runner src/Runner.Common/RunnerDotcomServer.cs,
 * RUNNER-PROTOCOL.md §1.7): plain HTTP with `Authorization: RemoteAuth <registration token>`, JSON
 * in snake_case, the RSA public key as .NET XML. `{api}` is GHES-style (`/api/v3`); like the
 * scripted registration call, this client keeps the `--url` port so it reaches a test server.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { send, type HttpResult } from './vss-client.js';

export interface RunnerGroupWire {
  readonly id: number;
  readonly name: string;
  readonly default: boolean;
  readonly is_hosted: boolean;
}

export interface RunnerAuthorizationWire {
  readonly authorization_url?: string;
  readonly server_url?: string;
  readonly client_id?: string;
  readonly legacy_authorization_url?: string | null;
}

export interface RegisteredRunnerWire {
  readonly id: number;
  readonly name: string;
  readonly authorization?: RunnerAuthorizationWire;
}

/** What `AddOrReplaceRunner` posts (§1.7 step 3); `runner_id` and `replace` only when replacing. */
export interface RegisterRunnerBody {
  readonly url: string;
  readonly group_id: number;
  readonly name: string;
  readonly version: string;
  readonly updates_disabled: boolean;
  readonly ephemeral: boolean;
  readonly labels: readonly { readonly id: number; readonly name: string; readonly type: string }[];
  readonly public_key: string;
  readonly runner_id?: number;
  readonly replace?: boolean;
}

/** `RSA.ToXmlString(false)`: base64 big-endian modulus and exponent in `<RSAKeyValue>`. */
export function xmlPublicKey(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  const modulus = Buffer.from(String(jwk.n), 'base64url').toString('base64');
  const exponent = Buffer.from(String(jwk.e), 'base64url').toString('base64');
  return `<RSAKeyValue><Modulus>${modulus}</Modulus><Exponent>${exponent}</Exponent></RSAKeyValue>`;
}

/** `GetEntityUrl`: `{api}/repos/<owner>/<repo>/actions`, `{api}/orgs/<org>/actions` or `{api}/enterprises/<slug>/actions`. */
export function entityUrl(gitHubUrl: string): string {
  const url = new URL(gitHubUrl);
  const path = url.pathname.split('/').filter((segment) => segment !== '');
  const api = `${url.origin}/api/v3`;
  if (path.length === 1) return `${api}/orgs/${path[0]}/actions`;
  if (path.length === 2 && path[0]?.toLowerCase() === 'enterprises') return `${api}/${path[0]}/${path[1]}/actions`;
  if (path.length === 2) return `${api}/repos/${path[0]}/${path[1]}/actions`;
  throw new Error(`'${gitHubUrl}' should point to an org or enterprise.`);
}

export class RunnerAdminClient {
  constructor(
    /** The runner's call log (`METHOD /path status`). */
    readonly calls: string[],
    /** `--url`. */
    readonly gitHubUrl: string,
    /** `--token`: the registration (or removal) token, sent as RemoteAuth. */
    readonly token: string,
  ) {}

  #headers(): Record<string, string> {
    return { authorization: `RemoteAuth ${this.token}` };
  }

  runnerGroups(): Promise<HttpResult> {
    return send(this.calls, 'GET', `${entityUrl(this.gitHubUrl)}/runner-groups`, { headers: this.#headers() });
  }

  runnersByName(name: string): Promise<HttpResult> {
    return send(this.calls, 'GET', `${entityUrl(this.gitHubUrl)}/runners?name=${encodeURIComponent(name)}`, { headers: this.#headers() });
  }

  register(body: RegisterRunnerBody): Promise<HttpResult> {
    return send(this.calls, 'POST', `${new URL(this.gitHubUrl).origin}/api/v3/actions/runners/register`, { headers: this.#headers(), json: body });
  }

  deleteRunner(runnerId: number): Promise<HttpResult> {
    return send(this.calls, 'DELETE', `${entityUrl(this.gitHubUrl)}/runners/${runnerId}`, { headers: this.#headers() });
  }
}
