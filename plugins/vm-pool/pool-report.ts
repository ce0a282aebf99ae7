import type { FastifyInstance } from 'fastify';
import type { StatusWarning } from '../../core/ports/index.js';
import { CRASH_LOOP_FAILURES, type PoolManager } from './manager/index.js';
import type { NodeRuntimes } from './runtimes/index.js';

/** What the pool plugin decided at start: the backend and why, or why there is no pool. */
export interface PoolChoice {
  /** The node this pool belongs to (`SVC_NODE_ID`); its guests are named after it. */
  readonly node: string;
  readonly manager: PoolManager | undefined;
  /** One sentence: the backend and why, or why the pool is off. */
  readonly reason: string;
  /** `auto` fell back to process: the namespace backend's reason. */
  readonly fallback: string | undefined;
  /** Asked for (auto) but no backend can run here. */
  readonly unavailable: boolean;
  /** The node20/node24 runtimes guests get (undefined without a pool). */
  readonly runtimes: NodeRuntimes | undefined;
  /** The tool cache guests share, if any. */
  readonly toolCache: string | undefined;
}

/** The pool's conditions for `GET /api/v1/status` (status warnings). */
export function poolWarnings(choice: PoolChoice): StatusWarning[] {
  const warnings: StatusWarning[] = [];
  if (choice.unavailable) warnings.push({ code: 'pool_unavailable', message: `the built-in pool runs no guests: ${choice.reason}` });
  if (choice.fallback !== undefined) {
    warnings.push({ code: 'pool_backend_fallback', message: `the built-in pool runs jobs without isolation (process backend): the namespace backend cannot be used: ${choice.fallback}` });
  }
  for (const runtime of choice.runtimes?.list() ?? []) {
    if (runtime.state === 'missing') warnings.push({ code: 'pool_runtime_missing', message: `${runtime.name} actions fail on the built-in pool: ${runtime.reason}` });
  }
  const status = choice.manager?.status();
  if (status !== undefined && status.consecutiveFailures >= CRASH_LOOP_FAILURES) {
    const retry = status.retryAt === undefined ? '' : `; next launch at ${new Date(status.retryAt).toISOString()}`;
    warnings.push({
      code: 'pool_crash_loop',
      message: `the built-in pool's guests keep failing (${status.consecutiveFailures} in a row): ${status.lastFailure ?? 'no reason recorded'}${retry}`,
    });
  }
  return warnings;
}

/**
 * The pool's part of /readyz (`notes["vm-pool/pool"]`): why jobs run without the default
 * isolation or not at all, or that guests keep failing; undefined when all is as it should be.
 */
export function poolReadinessNote(choice: PoolChoice): string | undefined {
  const warnings = poolWarnings(choice);
  return warnings.length === 0 ? undefined : warnings.map((warning) => warning.message).join('; ');
}

/** `GET /api/v1/pool` (system bearer): the backend, its reason, the guests and the failures. */
export function registerPoolRoute(app: FastifyInstance, choice: PoolChoice): void {
  app.get('/pool', async () => {
    const status = choice.manager?.status();
    return {
      node: choice.node,
      enabled: choice.manager !== undefined,
      reason: choice.reason,
      warnings: poolWarnings(choice),
      ...(status === undefined
        ? {}
        : {
            backend: status.backend,
            state: status.state,
            warm: status.warm,
            max: status.max,
            labels: status.labels,
            guests: status.guests.map((guest) => ({ guest_id: guest.guestId, runner_id: guest.runnerId ?? null, phase: guest.phase, pid: guest.pid ?? null, launched_at: new Date(guest.launchedAt).toISOString() })),
            launched: status.launched,
            exited: status.exited,
            jobs_taken: status.jobsTaken,
            consecutive_failures: status.consecutiveFailures,
            last_failure: status.lastFailure ?? null,
            retry_at: status.retryAt === undefined ? null : new Date(status.retryAt).toISOString(),
            runtimes: (choice.runtimes?.list() ?? []).map((runtime) => ({
              name: runtime.name,
              version: runtime.version,
              state: runtime.state,
              source: runtime.state === 'ready' ? runtime.source : null,
              path: runtime.state !== 'ready' ? null : runtime.source === 'server' ? runtime.node : runtime.dir,
              reason: runtime.state === 'missing' ? runtime.reason : null,
            })),
            tool_cache: choice.toolCache ?? null,
          }),
    };
  });
}
