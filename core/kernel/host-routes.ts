import type { FastifyInstance } from 'fastify';
import type { SystemAuth } from './core-services.js';
import { watchGithubApiRoutes } from './http/github-api-not-found.js';
import { installSystemAuth } from './http/system-auth.js';
import type { ReadinessCheck, ReadinessNote, RouteGroup } from './plugin.js';

export type HostState = 'booting' | 'starting' | 'ready' | 'draining' | 'stopped';

export interface NamedReadinessCheck {
  readonly name: string;
  readonly check: ReadinessCheck;
}

export interface NamedReadinessNote {
  readonly name: string;
  readonly note: ReadinessNote;
}

/** The notes that have something to say, by name; undefined when none has. */
function currentNotes(notes: readonly NamedReadinessNote[]): Record<string, string> | undefined {
  const entries = notes.flatMap(({ name, note }) => {
    const text = note();
    return text === undefined ? [] : [[name, text] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Registers a plugin's route group in its own encapsulated context, with the auth it asked for. */
export async function registerRouteGroup(app: FastifyInstance, group: RouteGroup, auth: SystemAuth): Promise<void> {
  await app.register(
    async (child) => {
      const githubApi = watchGithubApiRoutes(app, child, group.serves);
      if (group.auth === 'system') installSystemAuth(child, auth);
      await group.register(child);
      githubApi.done();
    },
    group.prefix === undefined ? {} : { prefix: group.prefix },
  );
}

/**
 * `GET /readyz`: unauthenticated readiness and a reason. Not ready while starting or draining,
 * or when a readiness check (the store, plugin checks) fails; no condition objects. With a runner
 * socket configured, its path is part of the answer (`runner_socket`); plugins' notes that have
 * something to say are under `notes` (they never change readiness). Served on TCP only.
 */
export function registerReadiness(
  app: FastifyInstance,
  state: () => HostState,
  checks: readonly NamedReadinessCheck[],
  listeners: { readonly runnerSocket?: string | undefined } = {},
  notes: readonly NamedReadinessNote[] = [],
): void {
  const socket = listeners.runnerSocket === undefined ? {} : { runner_socket: listeners.runnerSocket };
  app.get('/readyz', async (_request, reply) => {
    const noted = currentNotes(notes);
    const extra = noted === undefined ? socket : { ...socket, notes: noted };
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
