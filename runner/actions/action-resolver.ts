/**
 * The built-in ActionResolver (the runner's ActionManager): `docker://` images as they are;
 * local actions (`./path`) left for their step to read, since an earlier step usually checks
 * them out; `$/path` as the workflow's repository at its commit; remote actions
 * (`owner/repo[/path]@ref`) resolved through the job's server in one batch per level (the job's
 * steps, then each composite's), downloaded into `_work/_actions` unless the commit is there
 * already, their `action.yml` loaded, and the remote actions their composite steps use prepared
 * the same way, at most 9 levels deep (the runner's limit).
 *
 * One resolver serves one worker process (one job); downloaded folders are reused across jobs.
 */
import { join } from 'node:path';
import type { ActionResolver, ActionServer, ResolveContext, ResolvedAction, StepLog } from '../handlers/index.js';
import { ensureActionFiles } from './action-archive.js';
import { resolvedFrom, type ActionDefinition } from './action-definition.js';
import { referenceOfUses, usesText, type UsesReference } from './action-references.js';
import { requestKey, resolveDownloadInfo, type ActionRequest, type DownloadInfo } from './download-info.js';
import { ActionResolveError, type FetchLike, type HttpSettings } from './http-retry.js';
import { loadActionDirectory } from './load-action.js';

/** The runner's CompositeActionsMaxDepth. */
export const COMPOSITE_MAX_DEPTH = 9;

export interface ActionResolverOptions {
  readonly fetch?: FetchLike;
  /** Pause before a retry (default 10 s, the runner's lower bound). */
  readonly retryDelayMs?: number;
  /** Per request (default 20 minutes, the runner's download timeout). */
  readonly timeoutMs?: number;
}

type RepositoryReference = Extract<UsesReference, { kind: 'repository' }>;

export class BuiltinActionResolver implements ActionResolver {
  readonly #options: ActionResolverOptions;
  /** The job's server, from the first context that had one (composite steps resolve later without it). */
  #server: ActionServer | undefined;
  #addMask: ((value: string) => void) | undefined;
  readonly #infos = new Map<string, DownloadInfo>();
  /** By `owner/repo@ref`: the folder the commit is in. */
  readonly #folders = new Map<string, Promise<string>>();
  #batched = false;

  constructor(options: ActionResolverOptions = {}) {
    this.#options = options;
  }

  async resolve(reference: UsesReference, context: ResolveContext): Promise<ResolvedAction> {
    if (context.server !== undefined) this.#server = context.server;
    if (context.addMask !== undefined) this.#addMask = context.addMask;
    if (reference.kind === 'container') {
      return resolvedFrom({ kind: 'container', image: { kind: 'registry', image: reference.image }, origin: { display: usesText(reference) } });
    }
    const type = reference.repositoryType.toLowerCase();
    if (type === 'self' || (type === '' && reference.name === '')) {
      return resolvedFrom({ kind: 'local', path: reference.path, origin: { display: reference.path } });
    }
    const remote = type === 'selfrepository' ? this.#selfRepository(reference) : reference;
    if (remote.repositoryType.toLowerCase() !== 'github') {
      throw new ActionResolveError(`'${usesText(reference)}' has repository type '${reference.repositoryType}', which svc-runner cannot resolve`);
    }
    if (!this.#batched && context.references !== undefined) {
      this.#batched = true;
      await this.#resolveBatch(context.references.flatMap((other) => this.#remoteOf(other)), context);
    }
    return resolvedFrom(await this.#loadRemote(remote, context, 0));
  }

  /** The definitions a composite's steps need, downloaded (depth 1 is the composite's own steps). */
  async #prepareComposite(definition: ActionDefinition, context: ResolveContext, depth: number): Promise<void> {
    if (definition.kind !== 'manifest' || definition.manifest.runs.using !== 'composite') return;
    if (depth > COMPOSITE_MAX_DEPTH) throw new ActionResolveError(`Composite action depth exceeded max depth ${COMPOSITE_MAX_DEPTH}`);
    const remotes: RepositoryReference[] = [];
    for (const step of definition.manifest.runs.steps) {
      if (step.kind !== 'uses') continue;
      const reference = referenceOfUses(step.uses.value);
      if (reference !== undefined) remotes.push(...this.#remoteOf(reference));
    }
    await this.#resolveBatch(remotes, context);
    for (const remote of remotes) await this.#loadRemote(remote, context, depth);
  }

  #remoteOf(reference: UsesReference | { kind: 'script' }): RepositoryReference[] {
    if (reference.kind !== 'repository') return [];
    const type = reference.repositoryType.toLowerCase();
    if (type === 'github') return [reference];
    if (type === 'selfrepository' && this.#server?.selfRepository !== undefined) return [this.#selfRepository(reference)];
    return [];
  }

  #selfRepository(reference: RepositoryReference): RepositoryReference {
    const self = this.#server?.selfRepository;
    if (self === undefined || self.name === '' || self.sha === '') {
      throw new ActionResolveError(
        "Unable to resolve self-reference '$/'. This can occur when the server does not support this syntax, the feature flag is disabled, or the workflow context (repository/SHA) is unavailable.",
      );
    }
    return { kind: 'repository', name: self.name, ref: self.sha, path: reference.path, repositoryType: 'GitHub' };
  }

  async #resolveBatch(references: readonly RepositoryReference[], context: ResolveContext): Promise<void> {
    const requests = new Map<string, ActionRequest>();
    for (const reference of references) {
      const request = { nameWithOwner: reference.name, ref: reference.ref, path: reference.path };
      if (!this.#infos.has(requestKey(request)) && !requests.has(requestKey(request))) requests.set(requestKey(request), request);
    }
    if (requests.size === 0) return;
    const server = this.#server;
    if (server === undefined) {
      throw new ActionResolveError(`remote actions (${[...requests.keys()].join(', ')}) need the job's server, which this worker did not give the action resolver`, { unsupported: true });
    }
    const infos = await resolveDownloadInfo(server, [...requests.values()], this.#http(context.signal));
    for (const [key, info] of infos) {
      if (info.token !== undefined) this.#addMask?.(info.token);
      this.#infos.set(key, info);
    }
  }

  async #loadRemote(reference: RepositoryReference, context: ResolveContext, depth: number): Promise<ActionDefinition> {
    const key = requestKey({ nameWithOwner: reference.name, ref: reference.ref });
    if (!this.#infos.has(key)) await this.#resolveBatch([reference], context);
    const info = this.#infos.get(key);
    if (info === undefined) throw new ActionResolveError(`Unable to resolve action ${key}`);
    let folder = this.#folders.get(key);
    if (folder === undefined) {
      const token = info.token ?? this.#server?.githubToken ?? this.#server?.accessToken ?? '';
      folder = ensureActionFiles(context.directories.actions, info, token, context.log, this.#http(context.signal));
      this.#folders.set(key, folder);
      folder.catch(() => this.#folders.delete(key));
    }
    const root = await folder;
    const directory = reference.path === '' ? root : join(root, ...reference.path.split('/'));
    const display = `${reference.name}${reference.path === '' ? '' : `/${reference.path}`}`;
    const definition = await loadActionDirectory(directory, {
      displayPath: `${reference.name}/${reference.ref}${reference.path === '' ? '' : `/${reference.path}`}`,
      origin: { repository: reference.name, ref: reference.ref, sha: info.resolvedSha, display: usesText(reference) },
      missingMessage: `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' for action '${display}@${reference.ref}'.`,
    });
    await this.#prepareComposite(definition, context, depth + 1);
    return definition;
  }

  #http(signal: AbortSignal): HttpSettings {
    return {
      fetch: this.#options.fetch ?? ((input, init) => fetch(input, init)),
      retryDelayMs: this.#options.retryDelayMs ?? 10_000,
      attempts: 3,
      timeoutMs: this.#options.timeoutMs ?? 20 * 60_000,
      signal,
    };
  }
}

/** Logs each line of a multi-line problem as its own error (the runner shows manifest problems one by one). */
export function logProblems(log: Pick<StepLog, 'error'>, error: unknown): void {
  const problems = (error as { problems?: unknown }).problems;
  if (Array.isArray(problems)) for (const problem of problems) log.error(String(problem));
  else log.error(error instanceof Error ? error.message : String(error));
}

export function createActionResolver(options: ActionResolverOptions = {}): BuiltinActionResolver {
  return new BuiltinActionResolver(options);
}
