import type { FastifyInstance } from 'fastify';
import { guardJobRoutes } from '../auth/index.js';
import { registerAttachmentRoute } from './attachment-route.js';
import { registerFeedRoute } from './feed-route.js';
import { registerLogRoutes } from './log-routes.js';
import { registerPlanEventsRoute } from './plan-events-route.js';
import { registerTimelineRoutes } from './timeline-routes.js';
import { createWorkerRouteDeps, type WorkerApiDeps } from './worker-deps.js';
import { withWorkerErrors } from './worker-errors.js';

/**
 * The Worker's routes in the legacy flow (§4.1–§4.5, §4.8), at the templates connectionData
 * advertises under the tenant root: `/{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}/…`.
 * Every route takes the job access token only, and only for its own plan and timeline
 * (`requireJobToken`); errors are VSS wrapped exceptions. Register in its own (encapsulated)
 * context: it installs a hook, an error handler and content parsers.
 */
export async function registerWorkerRoutes(app: FastifyInstance, deps: WorkerApiDeps): Promise<void> {
  const routeDeps = createWorkerRouteDeps(deps, app.log);
  await withWorkerErrors(app, (scoped) => {
    // Log pages and attachments are raw bytes (octet-stream); any other non-JSON body is kept as
    // bytes too, so the route's schema (not a 415) tells the caller what is wrong.
    scoped.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    guardJobRoutes(scoped, deps.jobTokens);
    registerTimelineRoutes(scoped, routeDeps);
    registerLogRoutes(scoped, routeDeps);
    registerFeedRoute(scoped, routeDeps);
    registerAttachmentRoute(scoped, routeDeps);
    registerPlanEventsRoute(scoped, routeDeps);
  });
}
