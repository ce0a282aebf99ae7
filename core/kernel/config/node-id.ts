import { createHash } from 'node:crypto';
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
  /** Where the id came from: the operator's `SVC_NODE_ID`, or the default (host name and data directory). */
  readonly source: 'SVC_NODE_ID' | 'default';
}

/**
 * `SVC_NODE_ID`, validated; unset, the host's name made into an id (lower-cased, other characters
 * as `-`) and 6 hex digits of a hash of the data directory: a node keeps its id across restarts,
 * two hosts differ, and so do two servers of one host with their own data directories. Two
 * servers sharing a data directory on one host get the same default and need their own
 * `SVC_NODE_ID`: the second one with a live node's id is refused at start.
 */
export function readNodeId(raw: string | undefined, dataDir: string, host: string = hostname()): NodeIdentity {
  const explicit = raw?.trim();
  if (explicit !== undefined && explicit !== '') {
    if (!NODE_ID_PATTERN.test(explicit)) {
      throw new ConfigError(
        `SVC_NODE_ID='${raw}' is not a node id; use 1-63 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. ci-node-2)`,
      );
    }
    return { id: explicit, source: 'SVC_NODE_ID' };
  }
  return { id: defaultNodeId(host, dataDir), source: 'default' };
}

/** The default id: the host's name as a node id (`node` when it has none that fits), `-`, a hash of the data directory. */
export function defaultNodeId(host: string, dataDir: string): string {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 56)
    .replace(/[._-]+$/, '');
  const dir = createHash('sha256').update(dataDir).digest('hex').slice(0, 6);
  return `${NODE_ID_PATTERN.test(name) ? name : 'node'}-${dir}`;
}
