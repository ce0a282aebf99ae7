/**
 * The built-in action handlers and resolver, registered through the same extension point a third
 * party uses (README.md): `node12`/`node16`/`node20`/`node24`, `composite`, `docker`, local
 * actions (read when their step runs), and the resolver of `uses:` references.
 */
import { join } from 'node:path';
import { ActionResolveError, LOCAL_ACTION_USING, createActionResolver, type ActionResolverOptions } from '../actions/index.js';
import { createCompositeHandler } from './composite-handler.js';
import { createDockerHandler } from './docker-handler.js';
import { NotImplementedError, referenceKind, referenceText, type HandlerRegistry } from './handler-registry.js';
import type { ActionResolver } from './handler-types.js';
import { createLocalActionHandler } from './local-action-handler.js';
import { NODE_USINGS, createNodeHandler } from './node-handler.js';
import type { KillTimings } from './process-runner.js';

export interface BuiltinActionOptions {
  /** The runner root: JavaScript runtimes come from its `externals/` (default: beside the job's `_work`). */
  readonly runnerRoot?: string;
  readonly killTimings?: KillTimings;
  readonly baseEnvironment?: NodeJS.ProcessEnv;
  /** Resolution and download settings (tests shorten the retry pause). */
  readonly resolver?: ActionResolverOptions;
}

export function registerBuiltinActions(registry: HandlerRegistry, options: BuiltinActionOptions = {}): HandlerRegistry {
  const common = {
    ...(options.killTimings === undefined ? {} : { killTimings: options.killTimings }),
    ...(options.baseEnvironment === undefined ? {} : { baseEnvironment: options.baseEnvironment }),
  };
  const builtin = createActionResolver(options.resolver);
  // What svc cannot do here (no job server, no action source) fails the step, not "Set up job".
  const resolver: ActionResolver = {
    async resolve(reference, context) {
      try {
        return await builtin.resolve(reference, context);
      } catch (error) {
        if (!(error instanceof ActionResolveError) || !error.unsupported) throw error;
        throw new NotImplementedError(`not_implemented: ${referenceKind(reference)} actions (uses: ${referenceText(reference)}: ${error.message})`, { cause: error });
      }
    },
  };
  const node = createNodeHandler({ ...common, ...(options.runnerRoot === undefined ? {} : { externalsDir: join(options.runnerRoot, 'externals') }) });
  for (const using of NODE_USINGS) registry.register(using, node);
  registry.register('composite', createCompositeHandler({ handlers: registry, resolver }));
  registry.register('docker', createDockerHandler(common));
  registry.register(LOCAL_ACTION_USING, createLocalActionHandler(registry));
  return registry.setResolver(resolver);
}
