// The run service (§2.6-§2.8, broker flow): `acquirejob` (runner token) hands out a job message,
// `renewjob` and `completejob` (job token) keep and end the job; run-service error bodies.
import type { FastifyInstance } from 'fastify';
import { requireRunnerToken } from '../auth/index.js';
import { registerAcquireRoute } from './acquire-route.js';
import { registerRunServiceJobRoutes } from './job-routes.js';
import type { RunServiceDeps } from './run-service-deps.js';

export { ACQUIRE_JOB_PATH } from './acquire-route.js';
export { COMPLETE_JOB_PATH, RENEW_JOB_PATH } from './job-routes.js';
export type { RunServiceDeps } from './run-service-deps.js';

export async function registerRunServiceRoutes(app: FastifyInstance, deps: RunServiceDeps): Promise<void> {
  await app.register(async (runnerRoutes) => {
    runnerRoutes.addHook('onRequest', requireRunnerToken(deps.runnerAuth));
    registerAcquireRoute(runnerRoutes, deps);
  });
  await registerRunServiceJobRoutes(app, deps);
}
