import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { HostLifecycle } from '../../../core/kernel/index.js';
import { runEventLines, STREAM_IDLE_MS, type EventStreamDependencies } from './event-stream.js';
import { requireRun } from './run-routes.js';
import { RunParams } from './schemas.js';

export interface EventsRouteDependencies extends EventStreamDependencies {
  readonly lifecycle: HostLifecycle;
}

/** Past the idle close, a socket that took nothing more (a reader that stopped reading) is dropped. */
const STALLED_SOCKET_MS = STREAM_IDLE_MS + 30_000;

/** `GET /runs/{run_id}/events.ndjson`: the run's event stream (see event-stream.ts). */
export function registerEventsRoute(app: FastifyInstance, deps: EventsRouteDependencies): void {
  app.get<{ Params: { run_id: number } }>('/runs/:run_id/events.ndjson', { schema: { params: RunParams } }, async (request, reply) => {
    const run = await requireRun(deps.engine, request.params.run_id);
    const gone = new AbortController();
    reply.raw.on('close', () => gone.abort());
    reply.raw.setTimeout(STALLED_SOCKET_MS, () => reply.raw.destroy());
    const signal = AbortSignal.any([gone.signal, deps.lifecycle.shutdownSignal]);
    return reply
      .header('content-type', 'application/x-ndjson')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      // The socket closes with the stream: kept alive, it would hold a stopping server until
      // the keep-alive timeout, and a reconnect makes a new request anyway.
      .header('connection', 'close')
      .send(Readable.from(runEventLines(deps, run.id, signal)));
  });
}
