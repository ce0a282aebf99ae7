import { hostname } from 'node:os';
import { ConfigError } from '../errors.js';

/**
 * A node id: what names this `svc serve` among the nodes of one store (its liveness lease, the
 * jobs its runners report through, its pool's guests). Lower-case letters, digits, `.`, `_` and
 * `-`, starting with a letter or digit, at most 63 characters: it appears in file names under
 * the data directory and in job reasons, so nothing that needs quoting.
 */
export const NODE_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export interface NodeIdentity {
  readonly id: string;
  /** Where the id came from: the operator's `SVC_NODE_ID`, or this host's name. */
  readonly source: 'SVC_NODE_ID' | 'hostname';
}

/**
 * `SVC_NODE_ID`, validated; unset, the host's name made into an id (lower-cased, other characters
 * as `-`), so a node keeps its id across restarts and two hosts differ. Two nodes on one host
 * need their own `SVC_NODE_ID`: the second one with the same id is refused at start.
 */
export function readNodeId(raw: string | undefined, host: string = hostname()): NodeIdentity {
  const explicit = raw?.trim();
  if (explicit !== undefined && explicit !== '') {
    if (!NODE_ID_PATTERN.test(explicit)) {
      throw new ConfigError(
        `SVC_NODE_ID='${raw}' is not a node id; use 1-63 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. ci-node-2)`,
      );
    }
    return { id: explicit, source: 'SVC_NODE_ID' };
  }
  return { id: hostNodeId(host), source: 'hostname' };
}

/** The default id of a host: its name as a node id (`node` when it has none that fits). */
export function hostNodeId(host: string): string {
  const id = host
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 63);
  return NODE_ID_PATTERN.test(id) ? id : 'node';
}
