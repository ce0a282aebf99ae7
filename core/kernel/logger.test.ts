import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createRootLogger } from './logger.js';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { stream, lines };
}

describe('logger', () => {
  it('redacts credentials wherever they appear', async () => {
    const { stream, lines } = capture();
    const logger = createRootLogger({ destination: stream });
    logger.info({ token: 'svc_secret', config: { password: 'p4ss', webhookSecret: 'w' }, req: { headers: { authorization: 'Bearer svc_secret' } } }, 'x');
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines);
    for (const secret of ['svc_secret', 'p4ss', '"w"']) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    assert.equal(lines[0]?.token, '[redacted]');
  });

  it('child loggers carry the plugin name', async () => {
    const { stream, lines } = capture();
    createRootLogger({ destination: stream }).child({ plugin: 'runner-protocol' }).warn('hello');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines[0]?.plugin, 'runner-protocol');
    assert.equal(lines[0]?.service, 'svc');
  });
});
