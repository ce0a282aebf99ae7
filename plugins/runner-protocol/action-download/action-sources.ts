/**
 * Where remote actions come from, in order: the local mirror (`SVC_ACTIONS_MIRROR_DIR`), then the
 * forge (`SVC_FORGE_API_URL` / `SVC_FORGE_TOKEN`). A source resolves `owner/repo@ref` to a commit
 * or says why it cannot (`missing`, worded for the user: it ends up in the runner's log), and
 * builds or downloads the archive of a commit. A source that fails (the forge down, git broken)
 * throws; "not here" is never an exception.
 */
import type { Clock } from '../../../core/ports/index.js';
import { actionKey, type RemoteAction } from './action-refs.js';
import { createForgeSource } from './forge-source.js';
import { createGitMirror, type ActionMirror, type ArchiveFormat } from './git-mirror.js';

export type Resolution = { readonly sha: string } | { readonly missing: string };

export interface ActionSource {
  /** Names the source in messages (`the mirror`, `the forge at https://…`). */
  readonly label: string;
  resolve(action: RemoteAction): Promise<Resolution>;
  /** The archive of a commit `resolve` answered, one top-level directory. */
  archive(nameWithOwner: string, sha: string, format: ArchiveFormat): Promise<Buffer>;
  /** A file's text at a commit, when the source reads files cheaply (else it is read from the stored tarball). */
  readFile?(nameWithOwner: string, sha: string, path: string): Promise<string | undefined>;
}

/** The action-download part of the kernel's env config. */
export interface ActionSourceSettings {
  readonly actionsMirrorDir: string | undefined;
  readonly forgeConfigured: boolean;
  readonly forgeApiUrl: string;
  readonly forgeToken: string | undefined;
}

/** The sources the settings configure, mirror first; none when neither is set. */
export function createActionSources(settings: ActionSourceSettings, clock: Clock): readonly ActionSource[] {
  const sources: ActionSource[] = [];
  if (settings.actionsMirrorDir !== undefined) sources.push(mirrorSource(createGitMirror(settings.actionsMirrorDir)));
  if (settings.forgeConfigured) sources.push(createForgeSource({ apiUrl: settings.forgeApiUrl, token: settings.forgeToken, clock }));
  return sources;
}

export function mirrorSource(mirror: ActionMirror): ActionSource {
  return {
    label: 'the mirror',
    async resolve(action) {
      if (!(await mirror.has(action.nameWithOwner))) return { missing: `the mirror has no ${action.nameWithOwner}.git` };
      const sha = await mirror.resolve(action.nameWithOwner, action.ref);
      return sha === undefined ? { missing: `the mirror's ${action.nameWithOwner} has no tag, branch or commit '${action.ref}'` } : { sha };
    },
    archive: (nameWithOwner, sha, format) => mirror.archive(nameWithOwner, sha, format),
    readFile: (nameWithOwner, sha, path) => mirror.readFile(nameWithOwner, sha, path),
  };
}

/** The first source holding `action`, with its commit; or every source's reason why not. */
export async function locate(
  sources: readonly ActionSource[],
  action: RemoteAction,
): Promise<{ readonly source: ActionSource; readonly sha: string } | { readonly missing: string }> {
  const reasons: string[] = [];
  for (const source of sources) {
    const resolution = await source.resolve(action);
    if ('sha' in resolution) return { source, sha: resolution.sha };
    reasons.push(resolution.missing);
  }
  return { missing: `action ${actionKey(action)}: ${reasons.join('; ')}` };
}
