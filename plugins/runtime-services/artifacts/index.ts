// Artifacts v4: the service (names, visibility per run, retention) and its Twirp wire.
export { createArtifactService, type ArtifactService, type ArtifactSettings, type BackendIds, type CreateRequest } from './artifact-service.js';
export { checkArtifactName, contentDisposition, MAX_ARTIFACT_NAME_LENGTH } from './artifact-names.js';
export type { ArtifactRecord } from './artifact-records.js';
export { ARTIFACT_TWIRP_SERVICE, registerArtifactTwirp } from './artifact-twirp.js';
export { expireArtifacts } from './artifact-retention.js';
