import { createServiceRef } from '../kernel/index.js';

/**
 * This node's liveness lease, for plugins that must not act before the node id is known to be
 * this process's alone: the built-in pool removes and adopts the guests named after its node,
 * which a second process started with the same `SVC_NODE_ID` must never do to a live node's
 * guests. Provided by the `engine` plugin (its tables hold the leases).
 */
export interface NodeLiveness {
  /** This node's id (`SVC_NODE_ID`). */
  readonly nodeId: string;
  /**
   * Resolves once this process holds the node id's lease (claimed at most once, then renewed
   * until the host stops); rejects with a ConflictError when a live node holds the id.
   */
  registered(): Promise<void>;
}

/** Provided by `engine`. */
export const nodeLivenessServiceRef = createServiceRef<NodeLiveness>({ id: 'engine.nodeLiveness' });
