import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { fetchWithRetry } from './http-retry.js';

async function serverAnswering(status: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count += 1;
    response.writeHead(status, { 'content-type': 'application/json' }).end('{"message":"x"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/x`, requests: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const settings = { fetch: (input: string, init: RequestInit) => fetch(input, init), retryDelayMs: 1, attempts: 3, timeoutMs: 5_000 };

it('retries a 503 up to the attempts, but never a 501 (nothing to wait for) nor a 404', async () => {
  for (const [status, expected] of [[503, 3], [501, 1], [404, 1]] as const) {
    const server = await serverAnswering(status);
    try {
      const response = await fetchWithRetry(settings, server.url, { method: 'GET' });
      assert.equal(response.status, status);
      await response.body?.cancel();
      assert.equal(server.requests(), expected, `requests for a ${status}`);
    } finally {
      await server.close();
    }
  }
});
