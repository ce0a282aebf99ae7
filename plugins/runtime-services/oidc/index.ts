// The OIDC provider: ID tokens for jobs granted `id-token: write`, discovery, JWKS, key rotation.
export { CLAIMS_SUPPORTED, defaultAudience, jobClaims, subjectOf } from './oidc-claims.js';
export { createOidcKeyRing, OIDC_KEYS_NAME, type OidcKeyRing, type SigningKey } from './oidc-keys.js';
export { DISCOVERY_PATH, ID_TOKEN_ROUTE, ID_TOKEN_TTL_SECS, JWKS_PATH, registerOidcRoutes, type OidcRouteDeps } from './oidc-routes.js';
