import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RunnerTokens } from './runner-tokens.js';
import { TOKEN_PATH } from '../urls/index.js';
import { OAuthError, type AssertionVerifier } from './client-assertion.js';

const CLIENT_CREDENTIALS = 'client_credentials';
const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const FORM_BODY_LIMIT = 64 * 1024;

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  // 400 + JSON is what the runner's token client reads as an OAuth error (other statuses are generic failures).
  return reply.status(400).header('cache-control', 'no-store').type('application/json').send({ error: error.error, error_description: error.message });
}

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * `POST /_apis/oauth2/token`: the runner trades a client assertion signed with its own key
 * (§1.9.2, form-encoded `grant_type=client_credentials`, `client_assertion_type` jwt-bearer,
 * `client_assertion`) for an access token. Registered in its own context: it owns the form parser
 * and answers errors the OAuth way, not as VSS exceptions.
 */
export function registerTokenRoute(app: FastifyInstance, deps: { readonly assertions: AssertionVerifier; readonly tokens: RunnerTokens }): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.post(TOKEN_PATH, async (request, reply) => {
    try {
      const grantType = field(request.body, 'grant_type');
      if (grantType !== CLIENT_CREDENTIALS) {
        throw new OAuthError('unsupported_grant_type', `grant_type must be ${CLIENT_CREDENTIALS}${grantType === undefined ? '' : `, not ${grantType}`}`);
      }
      if (field(request.body, 'client_assertion_type') !== JWT_BEARER_ASSERTION) {
        throw new OAuthError('invalid_request', `client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
      }
      const assertion = field(request.body, 'client_assertion');
      if (assertion === undefined) throw new OAuthError('invalid_request', 'client_assertion is missing');
      const agent = await deps.assertions.verify(assertion);
      const issued = await deps.tokens.issueAccessToken(agent);
      return reply
        .header('cache-control', 'no-store')
        .type('application/json')
        .send({ access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: 'runner' });
    } catch (error) {
      if (error instanceof OAuthError) {
        request.log.info({ error: error.error, reason: error.message }, 'runner token request refused');
        return sendOAuthError(reply, error);
      }
      throw error;
    }
  });
}
