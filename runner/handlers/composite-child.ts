/**
 * Running one step inside a composite action through the registry, as the runner's embedded
 * steps run: a handler context of its own (its file commands, its `GITHUB_ACTION`, the
 * composite's folder as `github.action_path` / `GITHUB_ACTION_PATH`, its own
 * `github.action_repository` / `action_ref` and their variables, no `defaults.run`), its
 * lines in the composite step's log, its files applied afterwards (file commands of nested
 * steps: child-step-files.ts). Post stages it registers are collected for the composite's own
 * post stage.
 */
import type { ActionHandler, ActionReference, ActionStage, HandlerContext, HandlerOutcome, PostStepRequest, ResolvedAction, StepLog } from './handler-types.js';
import { actionOriginContext } from './action-details.js';
import { applyChildFiles, createChildFiles, type ChildFileEffects } from './child-step-files.js';
import { ChildStepLog } from './child-step-log.js';

/** A post stage a nested action asked for, with what it needs to run later. */
export interface NestedPost {
  readonly request: PostStepRequest;
  readonly stepId: string;
  readonly reference: ActionReference;
  readonly inputs: Readonly<Record<string, string>>;
  readonly environment: Readonly<Record<string, string>>;
  readonly state: Record<string, string>;
}

export interface ChildSpec {
  /** The nested step's id (`__run`, `__actions_checkout`, or its `id:`). */
  readonly id: string;
  readonly displayName: string;
  readonly reference: ActionReference;
  readonly action: ResolvedAction;
  readonly stage: ActionStage;
  readonly inputs: Readonly<Record<string, string>>;
  /** The `env` context of the nested step. */
  readonly environment: Readonly<Record<string, string>>;
  /** Contexts for the nested step's handler (`inputs`, `steps`, `env` of the composite). */
  readonly contexts: Readonly<Record<string, unknown>>;
  /** `$GITHUB_PATH` entries added by earlier nested steps, newest first. */
  readonly prependPath: readonly string[];
  /** State of the nested action's earlier stages (post stages). */
  readonly state: Record<string, string>;
  /** The composite action's folder. */
  readonly actionPath: string;
  readonly depth: number;
}

export interface ChildRun {
  readonly outcome: HandlerOutcome;
  readonly outputs: Record<string, string>;
  readonly effects: ChildFileEffects;
}

/** Nesting depth of composite steps, by the child's log (which survives handlers re-spreading the context). */
export const childDepth = new WeakMap<StepLog, number>();

export async function runChild(parent: HandlerContext, handler: ActionHandler, spec: ChildSpec, posts: NestedPost[]): Promise<ChildRun> {
  const files = await createChildFiles(parent.directories.temp);
  const effects: ChildFileEffects = { outputs: {}, state: spec.state, env: {}, path: [], failed: false };
  const log = new ChildStepLog(parent.log, effects.outputs, spec.state);
  childDepth.set(log, spec.depth);
  const github = typeof spec.contexts['github'] === 'object' && spec.contexts['github'] !== null ? (spec.contexts['github'] as Record<string, unknown>) : {};
  const origin = actionOriginContext(spec.reference);
  const child: HandlerContext = {
    ...parent,
    step: { id: parent.step.id, contextName: spec.id, name: spec.id, displayName: spec.displayName, reference: spec.reference },
    stage: spec.stage,
    action: spec.action,
    inputs: spec.inputs,
    environment: spec.environment,
    runtimeEnvironment: {
      ...parent.runtimeEnvironment,
      ...files.variables,
      GITHUB_ACTION: spec.id,
      GITHUB_ACTION_PATH: spec.actionPath,
      GITHUB_ACTION_REPOSITORY: origin.action_repository,
      GITHUB_ACTION_REF: origin.action_ref,
    },
    prependPath: [...spec.prependPath, ...parent.prependPath],
    defaults: {},
    contexts: { ...spec.contexts, github: { ...github, ...files.github, ...origin, action: spec.id, action_path: spec.actionPath } },
    state: { ...spec.state },
    log,
    registerPostStep: (request) =>
      posts.push({ request, stepId: spec.id, reference: spec.reference, inputs: spec.inputs, environment: spec.environment, state: spec.state }),
  };
  let outcome: HandlerOutcome;
  let outputs: Record<string, string> = {};
  try {
    const result = await handler.run(child);
    outcome = result.outcome;
    outputs = { ...(result.outputs ?? {}) };
  } catch (error) {
    parent.log.error(error instanceof Error ? error.message : String(error));
    outcome = 'failed';
  } finally {
    await applyChildFiles(files, parent.runtimeEnvironment, effects, parent.log);
  }
  if (effects.failed && outcome === 'succeeded') outcome = 'failed';
  return { outcome, outputs: { ...effects.outputs, ...outputs }, effects };
}
