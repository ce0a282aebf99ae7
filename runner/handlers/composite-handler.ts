/**
 * Composite actions (`runs.using: composite`), after the runner's CompositeActionHandler: the
 * action's steps in order inside the composite step, each with the `inputs` context (its `with:`
 * and the manifest's defaults), the composite's own `steps` context, the `env` context (the
 * step's, what earlier nested steps wrote to `$GITHUB_ENV`, then the nested `env:`), its `if:`
 * with `success()`/`failure()` reading the action's own status, `continue-on-error`, `run:`
 * steps (with their required `shell` and `working-directory`) and `uses:` steps (any action,
 * composite ones nested up to 9 levels). The action's `outputs` are evaluated at the end. Post
 * stages of nested actions run in the composite's own post stage, the last registered first.
 */
import {
  actionDefinitionOf,
  COMPOSITE_MAX_DEPTH,
  logProblems,
  referenceOfUses,
  type ManifestDefinition,
} from '../actions/index.js';
import {
  evaluateActionStageIf,
  evaluateStepIf,
  type CompositeRuns,
  type CompositeStep,
  type ExpressionContexts,
  type JobStatus,
} from '../../core/workflow/index.js';
import { actionOriginContext, printActionDetails, type ActionOriginContext } from './action-details.js';
import { actionInputs } from './action-inputs.js';
import { evaluateBoolean, evaluateMap, evaluateString, hashFilesPort, type TemplateScope } from './action-templates.js';
import { childDepth, runChild, type ChildSpec, type NestedPost } from './composite-child.js';
import { RUN_USING } from './handler-registry.js';
import type { ActionHandler, ActionReference, ActionResolver, HandlerContext, HandlerOutcome, HandlerResult, ResolvedAction } from './handler-types.js';
import type { HandlerLookup } from './local-action-handler.js';
import { firstLine } from './script-handler.js';

type CompositeDefinition = ManifestDefinition & { readonly manifest: { readonly runs: CompositeRuns } };

export interface CompositeHandlerOptions {
  /** The handlers nested steps run with (the registry the composite handler is in). */
  readonly handlers: HandlerLookup;
  /** Resolves nested `uses:` (remote ones were downloaded in "Set up job"). */
  readonly resolver: ActionResolver;
}

interface StepEntry {
  outputs: Record<string, string>;
  outcome?: string;
  conclusion?: string;
}

/** What the composite's steps share while they run. */
interface CompositeRun {
  readonly context: HandlerContext;
  readonly definition: CompositeDefinition;
  readonly inputs: Readonly<Record<string, string>>;
  readonly steps: Record<string, StepEntry>;
  /** `$GITHUB_ENV` of earlier nested steps. */
  readonly env: Record<string, string>;
  /** `$GITHUB_PATH` of earlier nested steps, newest first. */
  readonly path: string[];
  readonly posts: NestedPost[];
  readonly depth: number;
  status: JobStatus;
  outcome: HandlerOutcome;
}

function compositeOf(action: ResolvedAction): CompositeDefinition | undefined {
  const definition = actionDefinitionOf(action);
  return definition?.kind === 'manifest' && definition.manifest.runs.using === 'composite' ? (definition as CompositeDefinition) : undefined;
}

function jobStatusOf(contexts: Readonly<Record<string, unknown>>): JobStatus {
  const status = (contexts['job'] as { status?: unknown } | undefined)?.status;
  return status === 'failure' || status === 'cancelled' ? status : 'success';
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const RESULT_NAMES: Readonly<Record<HandlerOutcome | 'skipped', string>> = { succeeded: 'success', failed: 'failure', canceled: 'cancelled', skipped: 'skipped' };

/** Nested post stages by the composite's post action (module-wide: any registry of the process finds them). */
const postsOf = new WeakMap<ResolvedAction, NestedPost[]>();

export function createCompositeHandler(options: CompositeHandlerOptions): ActionHandler {

  /**
   * The contexts of a nested step. `github.action_repository`/`action_ref` are the composite's
   * (from its own context) unless `origin` gives the nested step's: what its handler evaluates
   * once it runs (a `run:` step's script, an action's `with:`) sees its own, as on the runner.
   */
  const contextsOf = (run: CompositeRun, env: Readonly<Record<string, string>>, origin?: ActionOriginContext): Record<string, unknown> => ({
    ...run.context.contexts,
    github: { ...record(run.context.contexts['github']), ...origin, action_path: run.definition.directory, action_status: run.status },
    inputs: run.inputs,
    steps: run.steps,
    env,
  });
  const templateScope = (run: CompositeRun, contexts: Readonly<Record<string, unknown>>): TemplateScope => ({
    contexts,
    fileTable: run.definition.fileTable,
    workspace: run.context.directories.workspace,
  });
  const merge = (run: CompositeRun, result: HandlerOutcome): void => {
    if (result === 'canceled') run.outcome = 'canceled';
    else if (result === 'failed' && run.outcome !== 'canceled') run.outcome = 'failed';
    if (run.outcome !== 'succeeded') run.status = run.outcome === 'canceled' ? 'cancelled' : 'failure';
  };
  const setResult = (run: CompositeRun, step: CompositeStep, outcome: HandlerOutcome | 'skipped', conclusion: HandlerOutcome | 'skipped', outputs: Record<string, string> = {}): void => {
    if (step.generatedId) return;
    run.steps[step.id] = { outputs, outcome: RESULT_NAMES[outcome], conclusion: RESULT_NAMES[conclusion] };
  };

  /** Runs one nested step; false when the composite must stop (a condition that cannot be evaluated). */
  const runStep = async (run: CompositeRun, step: CompositeStep): Promise<boolean> => {
    const { context } = run;
    const baseEnv = { ...context.environment, ...run.env };
    let env: Record<string, string>;
    try {
      env = { ...baseEnv, ...evaluateMap(step.env, 'runs.steps.env', 'environment', templateScope(run, contextsOf(run, baseEnv))) };
    } catch (error) {
      logProblems(context.log, error);
      setResult(run, step, 'failed', 'failed');
      merge(run, 'failed');
      return true;
    }
    const contexts = contextsOf(run, env);
    const scope = templateScope(run, contexts);
    let holds: boolean;
    try {
      context.log.debug(`Evaluating condition for step: '${step.id}'`);
      holds = evaluateStepIf(step.condition, contexts as ExpressionContexts, {
        jobStatus: context.signal.aborted ? 'cancelled' : jobStatusOf(context.contexts),
        actionStatus: run.status,
        schema: 'action',
        fileTable: run.definition.fileTable,
        hashFiles: hashFilesPort(context.directories.workspace),
      });
    } catch (error) {
      logProblems(context.log, error);
      setResult(run, step, 'failed', 'failed');
      merge(run, 'failed');
      return false;
    }
    if (!holds) {
      setResult(run, step, 'skipped', 'skipped');
      return true;
    }

    let spec: ChildSpec;
    let handler: ActionHandler;
    let ownScope = scope;
    try {
      const name = step.name === undefined ? '' : evaluateString(step.name, 'runs.steps.name', 'step name', scope);
      const base = { id: step.id, stage: 'main' as const, environment: env, contexts, prependPath: run.path, state: {}, actionPath: run.definition.directory, depth: run.depth };
      if (step.kind === 'run') {
        const reference: ActionReference = { kind: 'script' };
        ownScope = templateScope(run, contextsOf(run, env, actionOriginContext(reference)));
        const script = evaluateString(step.run, 'runs.steps.run', 'run', ownScope);
        const workingDirectory = evaluateString(step.workingDirectory, 'runs.steps.working-directory', 'working-directory', ownScope);
        const inputs = { script, shell: evaluateString(step.shell, 'runs.steps.shell', 'shell', ownScope), ...(workingDirectory === '' ? {} : { workingDirectory }) };
        spec = { ...base, displayName: name || `Run ${firstLine(script)}`, reference, action: { using: RUN_USING }, inputs };
        handler = options.handlers.handlerFor(RUN_USING);
      } else {
        const reference = referenceOfUses(step.uses.value);
        if (reference === undefined) throw new Error(`Expected format {org}/{repo}[/path]@ref. Actual '${step.uses.value}'`);
        ownScope = templateScope(run, contextsOf(run, env, actionOriginContext(reference)));
        const action = await options.resolver.resolve(reference, { directories: context.directories, log: context.log, signal: context.signal });
        const inputs = evaluateMap(step.with, 'runs.steps.with', 'inputs', ownScope);
        spec = { ...base, displayName: name || `Run ${step.uses.value}`, reference, action, inputs };
        handler = options.handlers.handlerFor(action.using);
      }
    } catch (error) {
      logProblems(context.log, error);
      setResult(run, step, 'failed', 'failed');
      merge(run, 'failed');
      return true;
    }

    const child = await runChild(context, handler, spec, run.posts);
    Object.assign(run.env, child.effects.env);
    run.path.unshift(...[...child.effects.path].reverse());
    let conclusion = child.outcome;
    if (conclusion === 'failed') {
      try {
        if (evaluateBoolean(step.continueOnError, 'runs.steps.continue-on-error', 'step continue-on-error', ownScope)) conclusion = 'succeeded';
      } catch (error) {
        logProblems(context.log, error);
      }
    }
    setResult(run, step, child.outcome, conclusion, child.outputs);
    merge(run, conclusion);
    return true;
  };

  const outputsOf = (run: CompositeRun): Record<string, string> => {
    const outputs: Record<string, string> = {};
    const env = { ...run.context.environment, ...run.env };
    const scope = templateScope(run, contextsOf(run, env));
    for (const output of run.definition.manifest.outputs) {
      if (output.value === undefined) continue;
      outputs[output.id] = evaluateString(output.value, `outputs.${output.id}.value`, 'output value', scope);
    }
    return outputs;
  };

  const runPosts = async (context: HandlerContext, definition: CompositeDefinition, posts: readonly NestedPost[]): Promise<HandlerResult> => {
    let outcome: HandlerOutcome = 'succeeded';
    for (const post of [...posts].reverse()) {
      const contexts = { ...context.contexts, env: post.environment };
      let holds = false;
      try {
        holds = evaluateActionStageIf(post.request.condition, contexts as ExpressionContexts, { jobStatus: jobStatusOf(context.contexts), hashFiles: hashFilesPort(context.directories.workspace) });
      } catch (error) {
        logProblems(context.log, error);
        outcome = 'failed';
        continue;
      }
      if (!holds) continue;
      const handler = options.handlers.handlerFor(post.request.action.using);
      const child = await runChild(
        context,
        handler,
        {
          id: post.stepId,
          displayName: post.request.displayName,
          reference: post.reference,
          action: post.request.action,
          stage: 'post',
          inputs: post.inputs,
          environment: post.environment,
          contexts,
          prependPath: [],
          state: post.state,
          actionPath: definition.directory,
          depth: (childDepth.get(context.log) ?? 0) + 1,
        },
        [],
      );
      if (child.outcome === 'canceled') outcome = 'canceled';
      else if (child.outcome === 'failed' && outcome === 'succeeded') outcome = 'failed';
    }
    return { outcome };
  };

  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const definition = compositeOf(context.action);
      if (definition === undefined) {
        context.log.error(`The composite action handler cannot run '${context.action.using}' (no composite action metadata)`);
        return { outcome: 'failed' };
      }
      if (context.stage === 'pre') return { outcome: 'succeeded' };
      if (context.stage === 'post') {
        printActionDetails(context, {});
        return runPosts(context, definition, postsOf.get(context.action) ?? []);
      }
      const depth = (childDepth.get(context.log) ?? 0) + 1;
      if (depth > COMPOSITE_MAX_DEPTH) {
        context.log.error(`Composite action depth exceeded max depth ${COMPOSITE_MAX_DEPTH}`);
        return { outcome: 'failed' };
      }
      let inputs: Record<string, string>;
      try {
        inputs = actionInputs(context, definition);
      } catch (error) {
        logProblems(context.log, error);
        return { outcome: 'failed' };
      }
      printActionDetails(context, inputs);
      const run: CompositeRun = { context, definition, inputs, steps: {}, env: {}, path: [], posts: [], depth, status: 'success', outcome: 'succeeded' };
      for (const step of definition.manifest.runs.steps) {
        if (context.signal.aborted) {
          merge(run, 'canceled');
          break;
        }
        if (!(await runStep(run, step))) break;
      }
      if (run.posts.length > 0) {
        const postAction: ResolvedAction = { ...context.action };
        postsOf.set(postAction, run.posts);
        context.registerPostStep({ displayName: `Post ${context.step.displayName}`, condition: 'always()', action: postAction });
      }
      let outputs: Record<string, string> = {};
      try {
        outputs = outputsOf(run);
      } catch (error) {
        logProblems(context.log, error);
        merge(run, 'failed');
      }
      return { outcome: run.outcome, outputs };
    },
  };
}
