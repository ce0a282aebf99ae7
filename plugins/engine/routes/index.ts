import type { FastifyInstance } from 'fastify';
import type { HostLifecycle } from '../../../core/kernel/index.js';
import type { Engine, NodeRegistry, Reporting } from '../../../core/engine/index.js';
import type { Clock, Notifier } from '../../../core/ports/index.js';
import { registerEventsRoute } from './events-route.js';
import { registerLogRoute } from './log-route.js';
import { registerNodesRoute } from './nodes-route.js';
import { registerRerunRoute } from './rerun-route.js';
import { registerRunRoutes } from './run-routes.js';
import { schemaErrorFormatter } from './schemas.js';

export interface EngineRouteDependencies {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly notifier: Notifier;
  readonly clock: Clock;
  readonly lifecycle: HostLifecycle;
  readonly nodes: NodeRegistry;
  /** This node's id. */
  readonly nodeId: string;
}

/** The engine's native management routes (mounted under /api/v1 with the system bearer). */
export function registerEngineRoutes(app: FastifyInstance, deps: EngineRouteDependencies): void {
  app.setSchemaErrorFormatter(schemaErrorFormatter);
  registerRunRoutes(app, deps);
  registerRerunRoute(app, deps);
  registerLogRoute(app, deps);
  registerEventsRoute(app, deps);
  registerNodesRoute(app, deps);
}
