// Action download info (§5.5): tickets for the remote actions a job declares, on the legacy wire
// (`actiondownloadinfo`) and the run service's (`runnerresolve/actions`), from the local mirror
// then the forge, through signed blob URLs.
import type { FastifyInstance } from 'fastify';
import { registerActionDownloadRoute } from './action-download-route.js';
import type { ActionDownloadDeps } from './batch-tickets.js';
import { registerRunnerResolveRoute } from './runner-resolve-route.js';

export { actionDownloadPath, ACTION_DOWNLOAD_LOCATION } from './action-download-route.js';
export { RUNNER_RESOLVE_PATH, type ResolvedActionWire } from './runner-resolve-route.js';
export { MAX_BATCH, type ActionDownloadDeps } from './batch-tickets.js';
export { createActionTickets, archiveKey, TICKET_TTL_SECS, type ActionTicket, type ActionTickets, type TicketOutcome } from './action-tickets.js';
export { admittedRemotes, MANIFEST_BUDGET } from './admission.js';
export { actionKey, parseRemoteUses, type RemoteAction } from './action-refs.js';

/** Both wires of action resolution, each in its own context. */
export async function registerActionDownloadRoutes(app: FastifyInstance, deps: ActionDownloadDeps): Promise<void> {
  await registerActionDownloadRoute(app, deps);
  await registerRunnerResolveRoute(app, deps);
}
