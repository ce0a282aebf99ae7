import type { RemoteRepositoriesContext } from '../../core/kernel/index.js';
import type { Clock, ForgeClients, Located, RemoteRepositories, RepositorySource } from '../../core/ports/index.js';
import { createForgeSource } from './forge-source.js';
import { createMirrorSource } from './git-mirror.js';

/** The part of the kernel's env config that says where remote repositories are. */
export type RemoteRepositorySettings = RemoteRepositoriesContext['settings'];

/** The sources the settings configure, the mirror first; none when neither is set. */
export function createRemoteRepositories(settings: RemoteRepositorySettings, clock: Clock, forgeClients: ForgeClients): RemoteRepositories {
  const sources: RepositorySource[] = [];
  if (settings.actionsMirrorDir !== undefined) sources.push(createMirrorSource(settings.actionsMirrorDir));
  if (settings.forgeConfigured) sources.push(createForgeSource({ client: forgeClients.forApi(settings.forgeApiUrl), token: settings.forgeToken, clock }));
  return fromSources(sources);
}

/** Remote repositories over the given sources, asked in order. */
export function fromSources(sources: readonly RepositorySource[]): RemoteRepositories {
  return {
    sources,
    async locate(nameWithOwner, ref): Promise<Located> {
      const missing: string[] = [];
      for (const source of sources) {
        const resolution = await source.resolve(nameWithOwner, ref);
        if ('sha' in resolution) return { source, sha: resolution.sha };
        missing.push(resolution.missing);
      }
      return { missing };
    },
  };
}
