import { randomBackoff, sleep } from './backoff.js';
import type { HttpClient } from './http-client.js';
import { RunnerHttpError, RunnerNetworkError, RunnerProtocolError } from './http-error.js';
import { wireValidator } from './wire-schema.js';

/** What `POST runner-registration` gives (§1.2): the tenant URL and a token for the `_apis` calls. */
export interface TenantCredential {
  readonly tenantUrl: string;
  readonly token: string;
  /** The server wants the runner-admin registration (§1.7) rather than the agents resource. */
  readonly useRunnerAdminFlow: boolean;
}

export type RunnerEvent = 'register' | 'remove';

const HOSTED = /^(?:(?:www\.)?github\.com|github\.localhost|[^.]+(?:\.[^.]+)*\.ghe\.(?:localhost|com))$/i;

/** `github.com`, `github.localhost`, `*.ghe.com`, ... use `api.<host>` (§0.7); other hosts are GHES-style. */
export function isHostedServer(url: URL): boolean {
  if (process.env['GITHUB_ACTIONS_RUNNER_FORCE_GHES'] === 'true') return false;
  return HOSTED.test(url.hostname);
}

/**
 * The registration endpoint for a `--url`. GHES-style hosts use `<origin>/api/v3/...`. The
 * official runner builds it from the scheme and host only, dropping a non-default port; svc-runner
 * keeps the port so it reaches a control plane on any port (plugins/runner-protocol "Known limit").
 */
export function registrationEndpoint(githubUrl: URL): string {
  if (isHostedServer(githubUrl)) return `${githubUrl.protocol}//api.${githubUrl.host}/actions/runner-registration`;
  return `${githubUrl.origin}/api/v3/actions/runner-registration`;
}

const answerSchema = {
  type: 'object',
  required: ['url', 'token', 'token_schema'],
  properties: { url: { type: 'string', minLength: 1 }, token: { type: 'string', minLength: 1 }, token_schema: { type: 'string' }, use_v2_flow: { type: ['boolean', 'null'] } },
} as const;
const checkAnswer = wireValidator<{ url: string; token: string; token_schema: string; use_v2_flow?: boolean | null }>(answerSchema);

const ATTEMPTS = 3;

/**
 * `POST {api}/actions/runner-registration` with `RemoteAuth <token>` (§1.2). Retried up to three
 * times with 1–5 s back-off like the runner, except that answers no retry can change (404, and
 * unlike the runner any other 4xx but 429, e.g. a wrong token) fail at once.
 */
export async function requestTenantCredential(http: HttpClient, githubUrl: URL, token: string, event: RunnerEvent): Promise<TenantCredential> {
  const url = registrationEndpoint(githubUrl);
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await http.call({
        method: 'POST',
        url,
        headers: { authorization: `RemoteAuth ${token}` },
        json: { url: githubUrl.href.replace(/\/+$/, ''), runner_event: event },
      });
      return checkTenant(githubUrl, checkAnswer(answer.body, `the answer of POST ${url}`));
    } catch (error) {
      const final = error instanceof RunnerHttpError && error.status >= 400 && error.status < 500 && error.status !== 429;
      if (final || attempt >= ATTEMPTS || !(error instanceof RunnerHttpError || error instanceof RunnerNetworkError)) throw error;
      await sleep(randomBackoff(1000, 5000));
    }
  }
}

function checkTenant(githubUrl: URL, answer: { url: string; token: string; token_schema: string; use_v2_flow?: boolean | null }): TenantCredential {
  if (answer.token_schema.toLowerCase() !== 'oauthaccesstoken') {
    throw new RunnerProtocolError(`runner-registration answered token_schema '${answer.token_schema}'; the runner only accepts OAuthAccessToken`);
  }
  let tenant: URL;
  try {
    tenant = new URL(answer.url);
  } catch {
    throw new RunnerProtocolError(`runner-registration answered a tenant url that is not a URL: '${answer.url}'`);
  }
  // GHES-style hosts: the tenant's authority must be the --url's or a sub-domain of it (§0.7).
  if (!isHostedServer(githubUrl) && tenant.host !== githubUrl.host && !tenant.host.endsWith(`.${githubUrl.host}`)) {
    throw new RunnerProtocolError(`GitHub Actions is not properly configured in GHES. GHES url: ${githubUrl.href}, Actions url: ${answer.url}.`);
  }
  return { tenantUrl: answer.url, token: answer.token, useRunnerAdminFlow: answer.use_v2_flow === true };
}
