// runner/handlers: the action-handler contract (README.md), the registry keyed by `runs.using`,
// the process runner every handler shares, and the built-in `run` script handler.
export type {
  ActionHandler,
  ActionReference,
  ActionResolver,
  ActionServer,
  ActionStage,
  AnnotationProperties,
  Directories,
  HandlerContext,
  HandlerOutcome,
  HandlerResult,
  PostStepRequest,
  ResolveContext,
  ResolvedAction,
  StepInfo,
  StepLog,
} from './handler-types.js';
export { HandlerRegistry, NotImplementedError, RUN_USING, referenceKind, referenceText } from './handler-registry.js';
export { DEFAULT_KILL_TIMINGS, ProcessStartError, readLines, runProcess, terminateOrphanProcesses } from './process-runner.js';
export type { KillTimings, ProcessOptions, ProcessResult } from './process-runner.js';
export { processEnvironment, which } from './process-environment.js';
export { createContainerStepHost, toStepEnvironment, unavailableStepHost } from './step-host.js';
export type { ContainerStepHostOptions, StepHost } from './step-host.js';
export { createScriptHandler, firstLine } from './script-handler.js';
export type { ScriptHandlerOptions } from './script-handler.js';

export { registerBuiltinActions } from './builtin-actions.js';
export type { BuiltinActionOptions } from './builtin-actions.js';
export { createNodeHandler, NODE_USINGS } from './node-handler.js';
export type { NodeHandlerOptions } from './node-handler.js';
export { createCompositeHandler } from './composite-handler.js';
export type { CompositeHandlerOptions } from './composite-handler.js';
export { createDockerHandler } from './docker-handler.js';
export type { DockerHandlerOptions } from './docker-handler.js';
export { createLocalActionHandler, LOCAL_ACTION_USING } from './local-action-handler.js';
export type { HandlerLookup } from './local-action-handler.js';
export { BUNDLED_NODE_MISSING, locateNode, nodeRuntimeFor } from './node-runtime.js';
export { actionOriginContext } from './action-details.js';
export type { ActionOriginContext } from './action-details.js';

import { RUN_USING, HandlerRegistry } from './handler-registry.js';
import { createScriptHandler, type ScriptHandlerOptions } from './script-handler.js';
import { registerBuiltinActions, type BuiltinActionOptions } from './builtin-actions.js';

/** A registry with the built-in handlers: `run`, JavaScript, composite, docker, local actions, and the action resolver. */
export function createDefaultRegistry(options: ScriptHandlerOptions & BuiltinActionOptions = {}): HandlerRegistry {
  return registerBuiltinActions(new HandlerRegistry().register(RUN_USING, createScriptHandler(options)), options);
}
