import type { Logger, Worker } from '../../../core/kernel/index.js';
import type { Clock } from '../../../core/ports/index.js';
import type { AgentsStore } from '../store/index.js';
import type { SessionsStore } from './sessions-store.js';

const BATCH = 100;

export interface SessionSweeperDeps {
  readonly sessions: SessionsStore;
  readonly agents: AgentsStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalMs: number;
  /** More housekeeping of the flow's tables, run on the same timer (each must be safe on every node at once). */
  readonly chores?: readonly ((now: number) => Promise<void>)[];
}

/**
 * One timer per node (not per runner): sessions whose listener stopped polling end, and their
 * runners go offline. Every change is conditional, so all nodes may sweep at once.
 */
export function createSessionSweeper(deps: SessionSweeperDeps): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const sweep = async (): Promise<void> => {
    const now = deps.clock.now();
    for (const session of await deps.sessions.expired(now, BATCH)) {
      if (await deps.sessions.removeExpired(session.sessionId, now)) {
        await deps.agents.setStatus(session.agentId, 'offline');
        deps.logger.info({ agentId: session.agentId, sessionId: session.sessionId }, 'session expired: the listener stopped polling');
      }
    }
    for (const chore of deps.chores ?? []) await chore(now);
  };

  const tick = (): void => {
    if (running) return;
    running = sweep()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'session sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    name: 'session-sweeper',
    start() {
      timer = setInterval(tick, deps.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
