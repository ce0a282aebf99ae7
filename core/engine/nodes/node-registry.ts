import { ConflictError } from '../../kernel/index.js';
import type { Clock, Database, LeaseTable, Leases } from '../../ports/index.js';
import { engineDb } from '../store/engine-db.js';
import type { NodesTable } from '../store/tables.js';

export const NODES_TABLE: LeaseTable = { table: 'engine_nodes' };

/** Who holds (or held) a node id's lease: enough to tell a dead predecessor from a live twin. */
export interface NodeHolder {
  readonly host: string;
  readonly pid: number;
}

export interface NodeRegistration extends NodeHolder {
  readonly nodeId: string;
  /** This process's lease owner (unique per process start). */
  readonly instance: string;
  readonly version: string;
  readonly ttlMs: number;
  /**
   * The id's lease is live but held by `holder`: answers whether that holder is this process's
   * own dead predecessor (same host, its pid gone), whose lease may be taken at once.
   */
  readonly predecessorGone: (holder: NodeHolder & { readonly owner: string }) => boolean;
}

export type NodeState = 'live' | 'lapsed' | 'stopped';

export interface NodeInfo extends NodeHolder {
  readonly id: string;
  readonly state: NodeState;
  readonly startedAt: number;
  /** Until when its lease holds; once it stopped cleanly, when it stopped. */
  readonly leaseExpiresAt: number | null;
  readonly version: string;
  readonly url: string | null;
}

/**
 * Each node's liveness lease in the store (`engine_nodes`, one row per node id, through the
 * Leases helper): a node claims its id at start, renews it every few seconds and releases it
 * when it stops. A lapsed lease is how the other nodes learn a node died (crash, partition):
 * the sweep then fails the jobs only it was hearing from (scheduler/dead-node-jobs.ts).
 */
export interface NodeRegistry {
  /**
   * Claims the node id: free, lapsed or held by this process's dead predecessor. Another live
   * holder is a ConflictError telling the operator to give this node its own SVC_NODE_ID.
   */
  register(registration: NodeRegistration): Promise<void>;
  /** Extends this process's lease (re-claiming it if it lapsed and nobody took it); false when lost. */
  renew(registration: NodeRegistration, url: string | null): Promise<boolean>;
  /** Frees the id (clean stop): the node shows as stopped, `leaseExpiresAt` the time it stopped. */
  release(registration: NodeRegistration): Promise<void>;
  list(): Promise<NodeInfo[]>;
  /**
   * Forgets nodes not live for `olderThanMs` that no running job names (ids come and go: a
   * default id follows the data directory, containers get new host names). Answers how many.
   */
  prune(olderThanMs: number): Promise<number>;
}

export function createNodeRegistry(deps: { readonly database: Database; readonly leases: Leases; readonly clock: Clock }): NodeRegistry {
  const { leases, clock } = deps;
  const db = engineDb(deps.database);

  const describe = async (registration: NodeRegistration) => {
    await db
      .updateTable('engine_nodes')
      .set({ started_at: clock.now(), host: registration.host, pid: registration.pid, version: registration.version })
      .where('id', '=', registration.nodeId)
      .where('lease_owner', '=', registration.instance)
      .execute();
  };

  return {
    async register(registration) {
      const { nodeId, instance, ttlMs } = registration;
      await db
        .insertInto('engine_nodes')
        .values({ id: nodeId, lease_owner: null, lease_expires_at: null, started_at: clock.now(), host: registration.host, pid: registration.pid, version: registration.version, url: null })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      if (await leases.claim(NODES_TABLE, nodeId, instance, ttlMs)) return describe(registration);
      const holder = await db.selectFrom('engine_nodes').selectAll().where('id', '=', nodeId).executeTakeFirst();
      if (holder && holder.lease_owner !== null && registration.predecessorGone({ host: holder.host, pid: Number(holder.pid), owner: holder.lease_owner })) {
        const now = clock.now();
        const taken = await db
          .updateTable('engine_nodes')
          .set({ lease_owner: instance, lease_expires_at: now + ttlMs })
          .where('id', '=', nodeId)
          .where('lease_owner', '=', holder.lease_owner)
          .executeTakeFirst();
        if (taken.numUpdatedRows > 0n) return describe(registration);
      }
      // Lost a race with a holder that appeared meanwhile, or a live twin: refuse either way.
      const current = await db.selectFrom('engine_nodes').selectAll().where('id', '=', nodeId).executeTakeFirst();
      throw new ConflictError(
        `node id '${nodeId}' is in use by a live node (${current ? `host ${current.host}, pid ${current.pid}, lease until ${new Date(Number(current.lease_expires_at)).toISOString()}` : 'unknown holder'}): ` +
          `give each node of one store its own SVC_NODE_ID (e.g. SVC_NODE_ID=${nodeId}-2), or wait ${Math.ceil(ttlMs / 1000)} s if that node was just killed`,
        { code: 'node_id_in_use' },
      );
    },
    async renew(registration, url) {
      const { nodeId, instance, ttlMs } = registration;
      const held = (await leases.renew(NODES_TABLE, nodeId, instance, ttlMs)) || (await leases.claim(NODES_TABLE, nodeId, instance, ttlMs));
      if (held) await db.updateTable('engine_nodes').set({ url }).where('id', '=', nodeId).where('lease_owner', '=', instance).execute();
      return held;
    },
    async release(registration) {
      // Not Leases.release: the expiry stays as the time the node stopped (prune reads it).
      const now = clock.now();
      await db
        .updateTable('engine_nodes')
        .set({ lease_owner: null, lease_expires_at: now })
        .where('id', '=', registration.nodeId)
        .where('lease_owner', '=', registration.instance)
        .execute();
    },
    async prune(olderThanMs) {
      const before = clock.now() - olderThanMs;
      const result = await db
        .deleteFrom('engine_nodes')
        .where('lease_expires_at', '<', before)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('engine_jobs').select('id').whereRef('engine_jobs.node_id', '=', 'engine_nodes.id').where('engine_jobs.status', '=', 'in_progress'))))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async list() {
      const now = clock.now();
      const rows = await db.selectFrom('engine_nodes').selectAll().orderBy('id').execute();
      return rows.map((row) => toNodeInfo(row, now));
    },
  };
}

function toNodeInfo(row: NodesTable, now: number): NodeInfo {
  const expires = row.lease_expires_at === null ? null : Number(row.lease_expires_at);
  const state: NodeState = row.lease_owner === null ? 'stopped' : expires !== null && expires >= now ? 'live' : 'lapsed';
  return { id: row.id, state, startedAt: Number(row.started_at), leaseExpiresAt: expires, host: row.host, pid: Number(row.pid), version: row.version, url: row.url };
}
