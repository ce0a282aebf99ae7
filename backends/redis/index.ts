export { createRedisNotifier, redisNotifier } from './redis-notifier.js';
export { DEFAULT_PREFIX, parseRedisUrl, type RedisLocation } from './redis-url.js';
