import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger, Worker } from '../../core/kernel/index.js';
import type { NodeHolder, NodeRegistration, NodeRegistry } from '../../core/engine/index.js';
import type { NodeLiveness } from '../../core/ports/index.js';

export interface NodeLeaseOptions {
  readonly registry: NodeRegistry;
  readonly nodeId: string;
  readonly version: string;
  readonly logger: Logger;
  /** The URL others reach this node at, once it listens (undefined before). */
  readonly url: () => string | undefined;
  /** How long the lease holds unless renewed (default 15 s). */
  readonly ttlMs?: number;
  /** How often it is renewed (default 5 s). */
  readonly renewEveryMs?: number;
}

export const NODE_LEASE_TTL_MS = 15_000;

/** The leases this process holds (several hosts in one process: tests, embedding). */
const heldHere = new Set<string>();
export const NODE_LEASE_RENEW_MS = 5_000;
/** Nodes gone for a week leave the list (NodeRegistry.prune), checked every 60th renewal. */
const FORGET_AFTER_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY = 60;

/**
 * This process's hold on its node id: claimed once (the first of the pool's start and this
 * worker's start to ask), renewed on a timer from then on, released on a clean stop. A live
 * lease held by another process is refused (ConflictError naming SVC_NODE_ID), except one left
 * by this node's own dead predecessor on this host (its pid gone, or ours: a container's pid 1
 * after a restart), so a restart right after `kill -9` is not kept waiting for the lease to lapse.
 */
export function createNodeLease(options: NodeLeaseOptions): { readonly liveness: NodeLiveness; readonly worker: Worker } {
  const { registry, logger } = options;
  const registration: NodeRegistration = {
    nodeId: options.nodeId,
    instance: `${options.nodeId}:${randomUUID()}`,
    host: hostname(),
    pid: process.pid,
    version: options.version,
    ttlMs: options.ttlMs ?? NODE_LEASE_TTL_MS,
    predecessorGone: (holder) => !heldHere.has(holder.owner) && predecessorGone(holder),
  };
  let claimed: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;
  let stopped = false;
  let held = true;
  let renewals = 0;

  const renew = async (): Promise<void> => {
    try {
      const now = await registry.renew(registration, options.url() ?? null);
      if (!now && held) logger.error({ node: options.nodeId }, `node ${options.nodeId}: another process took this node id's lease; give each node its own SVC_NODE_ID`);
      else if (now && !held) logger.warn({ node: options.nodeId }, `node ${options.nodeId}: liveness lease held again`);
      held = now;
      if (++renewals % PRUNE_EVERY === 0) {
        const forgotten = await registry.prune(FORGET_AFTER_MS);
        if (forgotten > 0) logger.info({ nodes: forgotten }, 'forgot nodes gone for a week');
      }
    } catch (error) {
      logger.warn({ err: error, node: options.nodeId }, `node ${options.nodeId}: renewing the liveness lease failed; retrying (other nodes take this node's jobs over once it lapses)`);
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      renewing = renew().finally(() => {
        renewing = undefined;
        schedule();
      });
    }, options.renewEveryMs ?? NODE_LEASE_RENEW_MS);
    timer.unref();
  };

  const liveness: NodeLiveness = {
    nodeId: options.nodeId,
    registered() {
      claimed ??= registry.register(registration).then(() => {
        logger.info({ node: options.nodeId, ttlMs: registration.ttlMs }, `node ${options.nodeId}: liveness lease taken`);
        heldHere.add(registration.instance);
        schedule();
      });
      return claimed;
    },
  };
  const worker: Worker = {
    name: 'node-lease',
    start: () => liveness.registered(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await renewing;
      heldHere.delete(registration.instance);
      if (claimed === undefined) return;
      await registry.release(registration).catch((error: unknown) => logger.warn({ err: error }, `node ${options.nodeId}: releasing the liveness lease failed; it lapses by itself`));
    },
  };
  return { liveness, worker };
}

/** The holder is a previous process of this node on this host that is gone. */
export function predecessorGone(holder: NodeHolder, host: string = hostname(), pid: number = process.pid): boolean {
  if (holder.host !== host) return false;
  if (holder.pid === pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
