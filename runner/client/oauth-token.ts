import { randomUUID, type KeyObject } from 'node:crypto';
import { sleep } from './backoff.js';
import type { HttpClient } from './http-client.js';
import { isRecord, RunnerProtocolError } from './http-error.js';
import { signJwt } from './jwt-sign.js';

/** The runner's OAuth client identity (`.credentials` + `.credentials_rsaparams`, §1.8). */
export interface OAuthClient {
  readonly clientId: string;
  /** The JWT audience, and where the token is requested unless `oauthEndpointUrl` says otherwise. */
  readonly authorizationUrl: string;
  readonly oauthEndpointUrl?: string;
  /** PS256 when true, RS256 when false (§1.9.2). */
  readonly requireFipsCryptography: boolean;
  readonly key: KeyObject;
}

/** The token endpoint refused: `error` is the OAuth error (`invalid_client` = registration deleted). */
export class OAuthTokenError extends Error {
  override readonly name = 'OAuthTokenError';
  constructor(
    readonly error: string,
    readonly status: number,
    description: string,
  ) {
    super(description === '' ? `the token endpoint answered ${status} (${error})` : `${description} (${error})`);
  }

  get registrationDeleted(): boolean {
    return this.error.toLowerCase() === 'invalid_client';
  }
}

/**
 * The client assertion (§1.9.2): `{"typ":"JWT","alg":...}`, claims sub, jti, iss, aud, nbf, exp
 * in that order, no iat, exp = nbf + 5 minutes.
 */
export async function clientAssertion(client: OAuthClient, nowMs: number): Promise<string> {
  const nbf = Math.floor(nowMs / 1000);
  const claims = { sub: client.clientId, jti: randomUUID(), iss: client.clientId, aud: client.authorizationUrl, nbf, exp: nbf + 300 };
  return signJwt({ typ: 'JWT', alg: client.requireFipsCryptography ? 'PS256' : 'RS256' }, claims, client.key);
}

const TOKEN_ATTEMPTS = 3;

/**
 * The runner's access token: requested with a client assertion when first needed or after a
 * 401, and kept until the next 401 (the runner never reads `expires_in`, §1.9.1).
 */
export class RunnerTokenSource {
  #token: string | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly http: HttpClient,
    private readonly client: OAuthClient,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): string | undefined {
    return this.#token;
  }

  /** Drops the cached token (ForceTokenRefresh, a 401). */
  invalidate(): void {
    this.#token = undefined;
  }

  /** A fresh token; concurrent callers share one request. */
  refresh(signal?: AbortSignal): Promise<string> {
    this.#pending ??= this.#request(signal).finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #request(signal: AbortSignal | undefined): Promise<string> {
    const url = this.client.oauthEndpointUrl ?? this.client.authorizationUrl;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.http.send({
        method: 'POST',
        url,
        form: {
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: await clientAssertion(this.client, this.now()),
        },
        headers: { accept: 'application/json' },
        attempts: 3,
        ...(signal === undefined ? {} : { signal }),
      });
      if (answer.status === 200) {
        const token = isRecord(answer.body) ? answer.body['access_token'] : undefined;
        if (typeof token !== 'string' || token === '') throw new RunnerProtocolError(`the token endpoint ${url} answered without an access_token`);
        this.#token = token;
        return token;
      }
      // The token client retries 500 and 429 (§1.9.2).
      if ((answer.status === 500 || answer.status === 429) && attempt < TOKEN_ATTEMPTS) {
        await sleep(1000 * attempt, signal);
        continue;
      }
      const body = isRecord(answer.body) ? answer.body : {};
      const error = typeof body['error'] === 'string' ? body['error'] : `http_${answer.status}`;
      const description = typeof body['error_description'] === 'string' ? body['error_description'] : answer.text.slice(0, 300);
      throw new OAuthTokenError(error, answer.status, description);
    }
  }
}
