import type { FastifyInstance } from 'fastify';
import type { SystemAuth } from './core-services.js';
import { installSystemAuth } from './http/system-auth.js';
import type { ReadinessCheck, RouteGroup } from './plugin.js';

export type HostState = 'booting' | 'starting' | 'ready' | 'draining' | 'stopped';

export interface NamedReadinessCheck {
  readonly name: string;
  readonly check: ReadinessCheck;
}

/** Registers a plugin's route group in its own encapsulated context, with the auth it asked for. */
export async function registerRouteGroup(app: FastifyInstance, group: RouteGroup, auth: SystemAuth): Promise<void> {
  await app.register(
    async (child) => {
      if (group.auth === 'system') installSystemAuth(child, auth);
      await group.register(child);
    },
    group.prefix === undefined ? {} : { prefix: group.prefix },
  );
}

/**
 * `GET /readyz`: unauthenticated readiness and a reason. Not ready while starting or draining,
 * or when a readiness check (the store, plugin checks) fails; no condition objects. With a runner
 * socket configured, its path is part of the answer (`runner_socket`). Served on TCP only.
 */
export function registerReadiness(
  app: FastifyInstance,
  state: () => HostState,
  checks: readonly NamedReadinessCheck[],
  listeners: { readonly runnerSocket?: string | undefined } = {},
): void {
  const extra = listeners.runnerSocket === undefined ? {} : { runner_socket: listeners.runnerSocket };
  app.get('/readyz', async (_request, reply) => {
    const current = state();
    if (current !== 'ready') {
      return reply.status(503).send({ ready: false, reason: current === 'draining' ? 'draining: shutting down' : current, ...extra });
    }
    for (const { name, check } of checks) {
      try {
        await check();
      } catch (error) {
        return reply.status(503).send({ ready: false, reason: `${name}: ${(error as Error).message}`, ...extra });
      }
    }
    return reply.send({ ready: true, reason: 'ready', ...extra });
  });
}
