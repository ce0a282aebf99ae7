/**
 * Local actions (`uses: ./path`): their files are read when the step runs, from
 * `github.workspace` (an earlier step usually checks them out, so "Set up job" cannot), then the
 * step is handed to the handler of the action's `runs.using`. Its post stage (registered by that
 * handler) refers to the loaded action, so it does not pass here again.
 */
import { LOCAL_ACTION_USING, actionDefinitionOf, loadLocalAction, logProblems, resolvedFrom } from '../actions/index.js';
import type { ActionHandler, HandlerContext, HandlerResult } from './handler-types.js';

export { LOCAL_ACTION_USING };

export interface HandlerLookup {
  handlerFor(using: string): ActionHandler;
}

export function createLocalActionHandler(handlers: HandlerLookup): ActionHandler {
  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const definition = actionDefinitionOf(context.action);
      if (definition?.kind !== 'local') {
        context.log.error(`The local action handler got '${context.action.using}', not a local action`);
        return { outcome: 'failed' };
      }
      let action;
      let handler;
      try {
        action = resolvedFrom(await loadLocalAction(definition.path, context.directories.workspace));
        handler = handlers.handlerFor(action.using);
      } catch (error) {
        logProblems(context.log, error);
        return { outcome: 'failed' };
      }
      return handler.run({ ...context, action });
    },
  };
}
