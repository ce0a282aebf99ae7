// Action download info (§5.5): tickets for the remote actions a job declares, served from the
// local mirror of bare repositories through signed blob URLs; the forge source is not built yet.
export { registerActionDownloadRoute, actionDownloadPath, ACTION_DOWNLOAD_LOCATION, type ActionDownloadDeps } from './action-download-route.js';
export { createActionTickets, archiveKey, TICKET_TTL_SECS, type ActionTicket, type ActionTickets } from './action-tickets.js';
export { createGitMirror, type ActionMirror } from './git-mirror.js';
export { admittedRemotes, MANIFEST_BUDGET } from './admission.js';
export { actionKey, parseRemoteUses, type RemoteAction } from './action-refs.js';
