import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InputError, type SystemAuth } from '../../../core/kernel/index.js';
import type { FlowSettings } from '../agents/index.js';
import { checkRegistrationCredential, registrationPolicyFor, type RegistrationPolicy, type RunnerEvent, type RunnerTokens } from '../auth/index.js';
import { tenantUrl, type RunnerUrls } from '../urls/index.js';

export const REGISTRATION_PATH = '/api/v3/actions/runner-registration';

export interface RegistrationRouteDeps {
  readonly policy: RegistrationPolicy;
  readonly systemAuth: SystemAuth;
  readonly tokens: RunnerTokens;
  readonly urls: RunnerUrls;
  /** `useV2Flow` (SVC_RUNNER_FLOW=broker) sends configuring runners down the runner-admin path. */
  readonly flow: FlowSettings;
}

const bodySchema = {
  type: 'object',
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1 },
    runner_event: { type: 'string', enum: ['register', 'remove'] },
  },
} as const;

/**
 * The runner's `--url`: `http(s)://host[:port]/<owner>`, `/<owner>/<repo>` or
 * `/enterprises/<slug>`. The scope is kept with the runner; the URL's authority decides the tenant.
 */
export function parseRunnerUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError(`url '${raw}' is not a URL; configure the runner with --url http://<host>:<port>/<owner>/<repo>`, { code: 'invalid_runner_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(`url '${raw}' must be http or https`, { code: 'invalid_runner_url' });
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (segments.length !== 1 && segments.length !== 2) {
    throw new InputError(`url '${raw}' must name an owner or a repository: --url ${url.origin}/<owner>/<repo> (or /<owner>)`, { code: 'invalid_runner_url' });
  }
  return url;
}

/** The scope kept with a runner: its `--url` without a trailing slash. */
export function scopeUrlOf(runnerUrl: URL): string {
  return `${runnerUrl.origin}${runnerUrl.pathname.replace(/\/+$/, '')}`;
}

/**
 * `POST /api/v3/actions/runner-registration` (§1.2): the first call of `config.sh` (and of
 * `config.sh remove`). Checks the registration credential against the policy and answers with
 * the tenant URL and a short-lived tenant token for the `_apis` calls that follow.
 *
 * `use_v2_flow` follows SVC_RUNNER_FLOW, as github.com pairs them: `legacy` keeps the legacy
 * configure path (agents resource, OAuth connection test; §1.5); `broker` sends the runner down
 * the runner-admin path (§1.7, `runner-admin-routes.ts`), which ends in a broker configuration.
 * The tenant URL and token are answered either way: `config.sh remove` of a runner configured on
 * the legacy path (before the switch) still goes through them (§1.11).
 */
export function registerRegistrationRoute(app: FastifyInstance, deps: RegistrationRouteDeps): void {
  // The credential is checked before the body is read (onRequest): a stranger's body is never buffered.
  const onRequest = async (request: FastifyRequest) => void checkRegistrationCredential(request, deps.policy, deps.systemAuth);
  app.post<{ Body: { url: string; runner_event?: RunnerEvent } }>(REGISTRATION_PATH, { schema: { body: bodySchema }, onRequest }, async (request) => {
    const policy = registrationPolicyFor(request, deps.policy);
    const runnerUrl = parseRunnerUrl(request.body.url);
    const event = request.body.runner_event ?? 'register';
    const base = deps.urls.registrationBase(runnerUrl);
    const scopeUrl = scopeUrlOf(runnerUrl);
    const issued = await deps.tokens.issueTenantToken({ scopeUrl, event });
    request.log.info({ scope: scopeUrl, event, policy }, 'runner registration accepted');
    return { url: tenantUrl(base), token_schema: 'OAuthAccessToken', token: issued.token, use_v2_flow: deps.flow.useV2Flow };
  });
}
