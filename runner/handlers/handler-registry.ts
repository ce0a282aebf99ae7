/**
 * The one extension point for running steps: handlers keyed by `runs.using` (`run` for `run:`
 * steps), and one resolver for `uses:` references. A reference nobody resolves, or a `using`
 * nobody handles, is a step failure that says so: never a silent success.
 */
import type { ActionHandler, ActionReference, ActionResolver, ResolveContext, ResolvedAction } from './handler-types.js';

/** The `using` of a `run:` step. */
export const RUN_USING = 'run';

export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
  readonly code = 'not_implemented';
}

/** How a reference is named in messages: `remote`, `local`, `self-repository`, `docker`. */
export function referenceKind(reference: ActionReference): string {
  switch (reference.kind) {
    case 'script':
      return 'script';
    case 'container':
      return 'docker';
    case 'repository': {
      const type = reference.repositoryType.toLowerCase();
      if (type === 'github') return 'remote';
      if (type === 'self') return 'local';
      if (type === 'selfrepository') return 'self-repository';
      return type === '' ? 'repository' : type;
    }
  }
}

/** `uses:` as the workflow wrote it (for messages). */
export function referenceText(reference: ActionReference): string {
  switch (reference.kind) {
    case 'script':
      return 'run';
    case 'container':
      return `docker://${reference.image}`;
    case 'repository': {
      if (reference.name === '') return reference.path;
      const path = reference.path === '' ? '' : `/${reference.path}`;
      return reference.ref === '' ? `${reference.name}${path}` : `${reference.name}${path}@${reference.ref}`;
    }
  }
}

export class HandlerRegistry {
  readonly #handlers = new Map<string, ActionHandler>();
  #resolver: ActionResolver | undefined;

  /** Adds the handler for a `runs.using` value (compared ignoring case). A second one for the same value is refused. */
  register(using: string, handler: ActionHandler): this {
    const key = using.toLowerCase();
    if (this.#handlers.has(key)) throw new TypeError(`a handler for '${using}' is registered already`);
    this.#handlers.set(key, handler);
    return this;
  }

  /** Sets the resolver of `uses:` references (one per registry). */
  setResolver(resolver: ActionResolver): this {
    if (this.#resolver !== undefined) throw new TypeError('an action resolver is set already');
    this.#resolver = resolver;
    return this;
  }

  has(using: string): boolean {
    return this.#handlers.has(using.toLowerCase());
  }

  /** The handler for `using`; a NotImplementedError (`not_implemented: node20 actions`) when none. */
  handlerFor(using: string): ActionHandler {
    const handler = this.#handlers.get(using.toLowerCase());
    if (handler === undefined) throw new NotImplementedError(`not_implemented: ${using} actions (no handler for runs.using '${using}' in svc-runner yet)`);
    return handler;
  }

  /** What a reference runs: `run` for scripts, the resolver's answer for `uses:`. */
  async resolve(reference: ActionReference, context: ResolveContext): Promise<ResolvedAction> {
    if (reference.kind === 'script') return { using: RUN_USING };
    if (this.#resolver === undefined) {
      throw new NotImplementedError(
        `not_implemented: ${referenceKind(reference)} actions (uses: ${referenceText(reference)} cannot run on svc-runner yet)`,
      );
    }
    return this.#resolver.resolve(reference, context);
  }
}
