/**
 * What the built-in resolver puts in `ResolvedAction.manifest`: an action's metadata as
 * core/workflow parsed it (with the file table its tokens refer to), a directory that only holds
 * a Dockerfile, a `docker://` image, a local action (`./path`) whose files are read when the
 * step runs (an earlier step usually checks them out, as on the runner), or the plain metadata
 * of an action whose `runs.using` only a third-party handler knows.
 */
import type { ActionManifest, DockerImage } from '../../core/workflow/index.js';
import type { ResolvedAction } from '../handlers/index.js';

/** The `using` of a local action before its `action.yml` is read (its handler loads it, then delegates). */
export const LOCAL_ACTION_USING = 'svc-local-action';

/** Where an action came from: what `GITHUB_ACTION_REPOSITORY` / `GITHUB_ACTION_REF` and messages show. */
export interface ActionOrigin {
  /** `owner/repo` of a downloaded action. */
  readonly repository?: string;
  readonly ref?: string;
  /** The commit it was downloaded at. */
  readonly sha?: string;
  /** `uses:` as written (`actions/checkout@v4`, `./.github/actions/x`, `docker://alpine`). */
  readonly display: string;
}

export type ActionDefinition =
  | {
      readonly kind: 'manifest';
      readonly manifest: ActionManifest;
      /** File names by token file id (for evaluating the manifest's tokens and placing errors). */
      readonly fileTable: readonly string[];
      /** The manifest file, absolute. */
      readonly file: string;
      /** The action's directory (the manifest's, i.e. `GITHUB_ACTION_PATH`). */
      readonly directory: string;
      readonly origin: ActionOrigin;
    }
  | { readonly kind: 'container'; readonly image: DockerImage; readonly directory?: string; readonly origin: ActionOrigin }
  | { readonly kind: 'local'; readonly path: string; readonly origin: ActionOrigin }
  | {
      /** A `runs.using` GitHub does not define, for a third-party handler: the manifest as plain YAML data. */
      readonly kind: 'custom';
      /** `runs.using`, lower case. */
      readonly using: string;
      /** The whole manifest (`name`, `inputs`, ...), values as written (expressions unevaluated). */
      readonly metadata: Readonly<Record<string, unknown>>;
      readonly runs: Readonly<Record<string, unknown>>;
      readonly file: string;
      readonly directory: string;
      readonly origin: ActionOrigin;
    };

export type ManifestDefinition = Extract<ActionDefinition, { kind: 'manifest' }>;

const KINDS = new Set(['manifest', 'container', 'local', 'custom']);

/** The built-in definition of a resolved action, or undefined when another resolver produced it. */
export function actionDefinitionOf(action: ResolvedAction): ActionDefinition | undefined {
  const value = action.manifest;
  if (typeof value !== 'object' || value === null) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  return typeof kind === 'string' && KINDS.has(kind) ? (value as ActionDefinition) : undefined;
}

/** The resolved action of a definition: `using` from `runs.using` (lower case), `docker` for images. */
export function resolvedFrom(definition: ActionDefinition): ResolvedAction {
  switch (definition.kind) {
    case 'local':
      return { using: LOCAL_ACTION_USING, manifest: definition };
    case 'custom':
      return { using: definition.using, directory: definition.directory, manifest: definition };
    case 'container':
      return { using: 'docker', ...(definition.directory === undefined ? {} : { directory: definition.directory }), manifest: definition };
    case 'manifest': {
      const runs = definition.manifest.runs;
      const pre = runs.using === 'docker' ? runs.preEntrypoint : runs.using === 'composite' ? undefined : runs.pre;
      const preIf = runs.using === 'composite' ? undefined : runs.preIf;
      return {
        using: runs.using.toLowerCase(),
        directory: definition.directory,
        manifest: definition,
        ...(pre !== undefined && pre !== '' && preIf !== undefined ? { pre: { condition: preIf } } : {}),
      };
    }
  }
}
