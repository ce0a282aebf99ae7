/**
 * Which remote actions a job may download (SPEC "Remote actions"): those its steps declare
 * (`uses: owner/repo[/path]@ref`), plus remotes nested in the composite manifests it can read —
 * local `./path` actions in the run's snapshot, and declared (or nested) remote composites in the
 * mirror. A manifest that cannot be read or parsed, or one past the traversal budget, admits
 * nothing; its nested remotes stay denied.
 */
import { ACTION_FILE_NAMES, parseActionManifest } from '../../../core/workflow/index.js';
import { admissionKey, parseRemoteUses, type RemoteAction } from './action-refs.js';

/** Reads a manifest file's text; undefined when it is not there or cannot be read. */
export interface ManifestReaders {
  /** A file of the run's own repository at the run's commit (`path` relative to its root). */
  readonly local?: (path: string) => Promise<string | undefined>;
  /** A file of a remote action's repository at `ref`. */
  readonly remote?: (action: RemoteAction, path: string) => Promise<string | undefined>;
}

/** Manifests read at most per batch, so a cycle or a huge tree of composites cannot hold the route. */
export const MANIFEST_BUDGET = 32;

type Uses = { readonly kind: 'remote'; readonly action: RemoteAction } | { readonly kind: 'local'; readonly path: string };

function classify(uses: string): Uses | undefined {
  const value = uses.trim();
  if (value.startsWith('./')) return { kind: 'local', path: value.slice(2) };
  const action = parseRemoteUses(value);
  return action === undefined ? undefined : { kind: 'remote', action };
}

/** The admission keys (`admissionKey`) of every remote the job's `uses:` values let it download. */
export async function admittedRemotes(stepUses: readonly string[], readers: ManifestReaders): Promise<ReadonlySet<string>> {
  const admitted = new Set<string>();
  const visited = new Set<string>();
  const queue: Uses[] = stepUses.map(classify).filter((entry): entry is Uses => entry !== undefined);
  let budget = MANIFEST_BUDGET;
  while (queue.length > 0) {
    const next = queue.shift() as Uses;
    const visitKey = next.kind === 'local' ? `local:${next.path}` : `remote:${admissionKey(next.action)}/${next.action.path}`;
    if (visited.has(visitKey)) continue;
    visited.add(visitKey);
    if (next.kind === 'remote') admitted.add(admissionKey(next.action));
    // Only manifests actually read spend the budget.
    if (budget <= 0 || (next.kind === 'local' ? readers.local : readers.remote) === undefined) continue;
    budget -= 1;
    const nested = await compositeUses(next, readers);
    for (const uses of nested) {
      const entry = classify(uses);
      // `./path` inside a remote composite names the workspace (the run's repository), like the runner.
      if (entry !== undefined) queue.push(entry);
    }
  }
  return admitted;
}

async function compositeUses(entry: Uses, readers: ManifestReaders): Promise<readonly string[]> {
  const read =
    entry.kind === 'local'
      ? readers.local
      : readers.remote === undefined
        ? undefined
        : (path: string) => (readers.remote as NonNullable<ManifestReaders['remote']>)(entry.action, path);
  if (read === undefined) return [];
  const dir = (entry.kind === 'local' ? entry.path : entry.action.path).replace(/\/+$/, '');
  for (const name of ACTION_FILE_NAMES) {
    const path = dir === '' ? name : `${dir}/${name}`;
    let content: string | undefined;
    try {
      content = await read(path);
    } catch {
      return []; // unreadable: its nested remotes stay denied
    }
    if (content === undefined) continue;
    const runs = parseActionManifest(content, { fileName: path }).manifest?.runs;
    if (runs === undefined || runs.using !== 'composite') return [];
    return runs.steps.flatMap((step) => (step.kind === 'uses' ? [step.uses.value] : []));
  }
  return [];
}
