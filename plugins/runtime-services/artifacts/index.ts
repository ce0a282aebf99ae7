// Artifacts v4: the service (names, visibility per run, retention) and its Twirp wire.
export { createArtifactService, type ArtifactService, type ArtifactSettings, type BackendIds, type CreateRequest } from './artifact-service.js';
export { checkArtifactName, contentDisposition, MAX_ARTIFACT_NAME_LENGTH } from './artifact-names.js';
export type { ArtifactRecord } from './artifact-records.js';
export { ARTIFACT_TWIRP_SERVICE, registerArtifactTwirp } from './artifact-twirp.js';
export { expireArtifacts } from './artifact-retention.js';
export { createRunArtifacts, type OpenedArtifact, type RunArtifacts } from './run-artifacts.js';
export { registerArtifactApiRoutes } from './artifact-api-routes.js';
export { toArtifactView, type ArtifactListView, type ArtifactView } from './artifact-view.js';
export { registerArtifactUrlRoute } from './artifact-url-route.js';
