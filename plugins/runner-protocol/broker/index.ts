// The broker listener surface (§2.5): sessions, the long poll handing out `RunnerJobRequest`
// references, acknowledgements; all behind the runner token, with the broker's error bodies.
import type { FastifyInstance } from 'fastify';
import { requireRunnerToken } from '../auth/index.js';
import type { BrokerDeps } from './broker-deps.js';
import { registerBrokerMessageRoutes } from './broker-message-routes.js';
import { registerBrokerSessionRoutes } from './broker-session-routes.js';

export { BROKER_ACKNOWLEDGE_PATH, BROKER_MESSAGE_PATH } from './broker-message-routes.js';
export { BROKER_SESSION_PATH } from './broker-session-routes.js';
export type { BrokerDeps } from './broker-deps.js';

export async function registerBrokerRoutes(app: FastifyInstance, deps: BrokerDeps): Promise<void> {
  await app.register(async (broker) => {
    broker.addHook('onRequest', requireRunnerToken(deps.runnerAuth));
    registerBrokerSessionRoutes(broker, deps);
    registerBrokerMessageRoutes(broker, deps);
  });
}
