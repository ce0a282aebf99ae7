export type { AnyKysely, Database, DatabaseCapabilities, Migration, MigrationReport, MigrationResult, Migrator } from './database.js';
export type { ClaimNextOptions, LeaseRow, LeaseTable, Leases } from './lease.js';
export type { Notifier, NotifyListener, WaitOptions, WakeReason } from './notifier.js';
export type { BlobInfo, BlobStore, BlobUrlSigner, SignedMethod, SignedUrlRequest } from './blob-store.js';
export type { CredentialStore } from './credential-store.js';
export type { SharedKeys } from './shared-keys.js';
export type { Clock, IdGenerator } from './clock.js';
export { statusWarningsExtensionPoint, type StatusWarning, type StatusWarningSource, type StatusWarningsExtension } from './status-warnings.js';
export { waitForWake } from './wake.js';
export type { SnapshotCommit, SnapshotHistory, SnapshotMeta, SnapshotNegotiation, SnapshotOffer, SnapshotPackImport, SnapshotPackMeta, SnapshotStore, SnapshotTag } from './snapshots.js';
export { JOB_TOKEN_CREDENTIAL, runtimeJobsServiceRef, type CacheMode, type JobWorkflowFile, type RuntimeJob, type RuntimeJobContext, type RuntimeJobs } from './runtime-jobs.js';
export { nodeLivenessServiceRef, type NodeLiveness } from './node-liveness.js';
export { runnerProvisioningServiceRef, type ProvisionedRunner, type ProvisionedRunnerState, type ProvisionRequest, type RunnerProvisioning } from './runner-provisioning.js';
export {
  splitRepositoryName,
  type ArchiveFormat,
  type Located,
  type RefResolution,
  type RemoteRepositories,
  type RepositorySource,
} from './remote-repositories.js';
export { jobValuesServiceRef, type JobValues, type JobValuesOf, type RunValues, type SuppliedValues } from './job-values.js';
export type { BreakerSnapshot, BreakerStateName, ForgeClient, ForgeClients } from './forge.js';
export { forgeAppsServiceRef, type AppPermissions, type ForgeApp, type ForgeApps, type InstallationToken, type MintRecord, type PermissionLevel, type RepositoryInstallation } from './forge-apps.js';
