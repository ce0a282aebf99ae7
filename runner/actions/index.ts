// runner/actions: the built-in action resolver (local, remote through the job's server, `$/path`,
// `docker://`), action.yml loading through core/workflow, and the definitions handlers read.
export { LOCAL_ACTION_USING, actionDefinitionOf, resolvedFrom } from './action-definition.js';
export type { ActionDefinition, ActionOrigin, ManifestDefinition } from './action-definition.js';
export { referenceOfUses, usesText } from './action-references.js';
export type { UsesReference } from './action-references.js';
export { BuiltinActionResolver, COMPOSITE_MAX_DEPTH, createActionResolver, logProblems } from './action-resolver.js';
export type { ActionResolverOptions } from './action-resolver.js';
export { actionDirectory, completedSha } from './action-archive.js';
export { ACTION_DOWNLOAD_LOCATION, requestKey, resolveDownloadInfo } from './download-info.js';
export type { ActionRequest, DownloadInfo } from './download-info.js';
export { ActionResolveError } from './http-retry.js';
export type { FetchLike } from './http-retry.js';
export { ActionLoadError, loadActionDirectory, loadLocalAction } from './load-action.js';
export type { LoadActionOptions } from './load-action.js';
