import type { FastifyReply } from 'fastify';
import { holdConnection } from '../../../core/kernel/index.js';

/** The end of one long poll: its hold, the runner hanging up, or the host shutting down. */
export interface PollSignal {
  readonly signal: AbortSignal;
  /** True once the runner hung up: nothing sent now would reach it. */
  clientGone(): boolean;
  /** Removes the timer and the listeners (call when the poll ends). */
  dispose(): void;
}

/**
 * One controller per poll, aborted by the hold timer (the only timer a waiting runner costs), by
 * the connection closing before an answer was written, or by `shutdown` (polls end on drain).
 */
export function pollSignal(reply: FastifyReply, holdMs: number, shutdown: AbortSignal): PollSignal {
  const controller = new AbortController();
  let gone = false;
  const abort = () => controller.abort();
  const onClose = () => {
    if (!reply.raw.writableFinished) {
      gone = true;
      abort();
    }
  };
  const timer = setTimeout(abort, holdMs);
  // A waiting runner's socket is silent for the whole hold: not idle in the server's sense.
  holdConnection(reply.raw, holdMs);
  reply.raw.on('close', onClose);
  shutdown.addEventListener('abort', abort, { once: true });
  if (shutdown.aborted) abort();
  return {
    signal: controller.signal,
    clientGone: () => gone || reply.raw.destroyed,
    dispose() {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
      shutdown.removeEventListener('abort', abort);
    },
  };
}
