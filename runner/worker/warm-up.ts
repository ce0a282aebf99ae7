/**
 * What a job would pay on first use, paid by a prestarted worker while it waits for its job
 * (measured on a trivial job, each some tens of ms on the critical path): the workflow schema
 * (built by the first step condition) and node's fetch (its HTTP client is loaded and set up by
 * the first request, the job's `connectionData`): one request to a throwaway loopback server.
 * Each part yields first, so a job message that arrives meanwhile waits for one part at most.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { parserSchema } from '../../core/workflow/index.js';
import type { DiagnosticLog } from '../reporting/index.js';

const FETCH_WARM_UP_TIMEOUT_MS = 5000;

export async function warmUp(diagnostic: DiagnosticLog): Promise<void> {
  try {
    await yieldToEvents();
    parserSchema('workflow');
    await yieldToEvents();
    await loopbackFetch();
  } catch (error) {
    diagnostic(`warm-up: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function loopbackFetch(): Promise<void> {
  const server = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(FETCH_WARM_UP_TIMEOUT_MS) });
    await response.text();
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
