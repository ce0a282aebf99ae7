import type { FastifyInstance } from 'fastify';
import type { NodeRegistry } from '../../../core/engine/index.js';

/**
 * `GET /api/v1/nodes`: the nodes of this store and their liveness (`live`: renewing its lease;
 * `lapsed`: stopped renewing without a clean stop, its jobs are taken over; `stopped`: stopped
 * cleanly), and which one answered.
 */
export function registerNodesRoute(app: FastifyInstance, deps: { readonly nodes: NodeRegistry; readonly nodeId: string }): void {
  app.get('/nodes', async () => ({
    node: deps.nodeId,
    nodes: (await deps.nodes.list()).map((node) => ({
      id: node.id,
      state: node.state,
      host: node.host,
      pid: node.pid,
      version: node.version,
      url: node.url,
      started_at: new Date(node.startedAt).toISOString(),
      lease_expires_at: node.leaseExpiresAt === null ? null : new Date(node.leaseExpiresAt).toISOString(),
    })),
  }));
}
