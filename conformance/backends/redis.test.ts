import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, test, type TestContext } from 'node:test';
import { ConfigError, createSilentLogger, type BackendContext } from '../../core/kernel/index.js';
import type { Notifier } from '../../core/ports/index.js';
import { redisNotifier } from '../../backends/redis/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { onCleanup, redisPrefixUrl, requireService } from '../../test/support/services.js';
import { notifierSuite } from './notifier-suite.js';

const service = await requireService('redis');
const skip = service.skip;
const baseUrl = service.url ?? '';

function context(url: string): BackendContext {
  return { logger: createSilentLogger(), clock: new ManualClock(), dataDir: '/nonexistent', url };
}

async function openNotifier(t: TestContext, url: string): Promise<Notifier> {
  const notifier = await redisNotifier.create(context(url));
  onCleanup(t, () => notifier.close());
  return notifier;
}

notifierSuite(
  'redis pub/sub',
  async (t) => {
    const { url } = redisPrefixUrl(t, baseUrl);
    return { notifier: await openNotifier(t, url), openPeer: () => openNotifier(t, url) };
  },
  { skip },
);

describe('redis notifier: setup', { skip }, () => {
  test('installations with different prefixes do not hear each other', async (t) => {
    const a = await openNotifier(t, redisPrefixUrl(t, baseUrl).url);
    const b = await openNotifier(t, redisPrefixUrl(t, baseUrl).url);
    const heardByB: string[] = [];
    await b.subscribe('jobs.queued', (payload) => heardByB.push(payload));
    const heardByA: string[] = [];
    await a.subscribe('jobs.queued', (payload) => heardByA.push(payload));
    await a.notify('jobs.queued', 'for-a-only');
    for (let i = 0; i < 250 && heardByA.length === 0; i += 1) await delay(20);
    assert.deepEqual(heardByA, ['for-a-only']);
    assert.deepEqual(heardByB, []);
  });

  test('a bad URL is a configuration error; an unreachable Redis is unavailable', async () => {
    await assert.rejects(redisNotifier.create(context('')), (error: unknown) => error instanceof ConfigError && /SVC_REDIS_URL/.test(error.message));
    await assert.rejects(redisNotifier.create(context('http://localhost')), (error: unknown) => error instanceof ConfigError);
    await assert.rejects(redisNotifier.create(context(`${baseUrl}?prefix=${encodeURIComponent('bad prefix')}`)), (error: unknown) => error instanceof ConfigError);
    await assert.rejects(redisNotifier.create(context('redis://127.0.0.1:1')), { code: 'notifier_unavailable' });
  });
});
