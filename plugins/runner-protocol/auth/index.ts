// Runner credentials: the server's signing key, tenant and runner access tokens, the OAuth token
// endpoint (client assertions), the registration policy, and the hook other runner routes use.
export { loadSigningKey, RUNNER_SIGNING_KEY_NAME, type SigningKey } from './signing-key.js';
export {
  ACCESS_TOKEN_TTL_SECS,
  createRunnerTokens,
  TENANT_TOKEN_TTL_SECS,
  type AccessGrant,
  type IssuedToken,
  type RunnerEvent,
  type RunnerTokens,
  type TenantGrant,
} from './runner-tokens.js';
export { MIN_RSA_KEY_BITS, publicKeyObject, rsaPublicKeyOf } from './public-key.js';
export { ASSERTION_CLOCK_TOLERANCE_SECS, createAssertionVerifier, OAuthError, type AssertionVerifier } from './client-assertion.js';
export { registerTokenRoute } from './token-route.js';
export {
  bearerToken,
  createRunnerAuth,
  maybeRunnerOf,
  requireRunnerToken,
  runnerOf,
  setRunnerOf,
  type RunnerAuth,
} from './require-runner-token.js';
export { checkRegistrationCredential, registrationPolicyFor, type RegistrationPolicy } from './registration-policy.js';
export { createJobAttempts, endedOnItsRunner, engineRunnerId, jobAttemptEnd, JobAttemptEndedError, type JobAttemptClaims, type JobAttemptEnd, type JobAttempts } from './job-attempts.js';
export {
  createJobTokens,
  JOB_TOKEN_MARGIN_SECS,
  jobRecordIdOf,
  jobTokenOf,
  jobTokenTtlSeconds,
  completionRoute,
  guardJobRoutes,
  refuseEndedVss,
  requireJobToken,
  sendJobForbidden,
  type JobTokenClaims,
  type JobTokens,
  type JobTokensOptions,
  type RefuseEnded,
  type VerifiedJobToken,
} from './job-token.js';
