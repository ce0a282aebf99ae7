// Remote repositories (core/ports remote-repositories.ts): the local mirror of bare repositories
// (SVC_ACTIONS_MIRROR_DIR), then the forge's REST API (SVC_FORGE_API_URL / SVC_FORGE_TOKEN).
import type { RemoteRepositoriesBackend } from '../../core/kernel/index.js';
import { createRemoteRepositories } from './remote-repositories.js';

export { createRemoteRepositories, fromSources, type RemoteRepositorySettings } from './remote-repositories.js';
export { createMirrorSource, MAX_ARCHIVE_BYTES } from './git-mirror.js';
export { createForgeSource, MISSING_REF_CACHE_MS, REF_CACHE_MS, type ForgeSourceOptions } from './forge-source.js';

/** The kernel's catalog entry: one implementation, configured by the env config. */
export const remoteRepositories: RemoteRepositoriesBackend = {
  kind: 'remote-repositories',
  id: 'mirror-and-forge',
  create: async (context) => createRemoteRepositories(context.settings, context.clock, context.forgeClients),
};
