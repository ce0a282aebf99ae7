// The Actions cache: the service (scopes, matching, cache mode), its v2 Twirp and v1 REST wires, eviction.
export { createCacheService, type CacheCaller, type CacheHit, type CacheService, type CacheSettings, type Reservation } from './cache-service.js';
export type { CacheEntry } from './cache-entries.js';
export { CACHE_READ_DENIED, CACHE_WRITE_DENIED, readableScopes, writableScope } from './cache-scopes.js';
export { CACHE_TWIRP_SERVICE, registerCacheTwirp } from './cache-twirp.js';
export { CACHE_V1_PREFIX, registerCacheV1Routes } from './cache-v1-routes.js';
export { evictCaches, type CacheEvictionSettings, type EvictionReport } from './cache-eviction.js';
