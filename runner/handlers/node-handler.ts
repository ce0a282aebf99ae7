/**
 * JavaScript actions (`runs.using: node12 | node16 | node20 | node24`), after the runner's
 * NodeScriptActionHandler: the stage's script (`main`, `pre` or `post`, relative to the action's
 * folder) run by the runtime node-runtime.ts picks, from `github.workspace`, with the step's
 * environment plus `INPUT_*`, the Actions runtime variables (`ACTIONS_RUNTIME_URL`, ...),
 * `STATE_*` of earlier stages and `GITHUB_ACTION_*`; every output line through the step's log.
 * A non-zero exit fails the step (the action reports why itself, with `::error::`). The post
 * stage is registered when the pre or main stage starts, once, with the action's `post-if`.
 */
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { actionDefinitionOf, type ManifestDefinition } from '../actions/index.js';
import type { NodeRuns } from '../../core/workflow/index.js';
import { actionPathEnvironment, printActionDetails } from './action-details.js';
import { actionInputs, inputEnvironment } from './action-inputs.js';
import type { ActionHandler, HandlerContext, HandlerResult, ResolvedAction } from './handler-types.js';
import { BUNDLED_NODE_MISSING, locateNode, nodeRuntimeFor, type NodeRuntimeName } from './node-runtime.js';
import { processEnvironment } from './process-environment.js';
import { ProcessStartError, runProcess, type KillTimings } from './process-runner.js';
import { toStepEnvironment, type StepHost } from './step-host.js';

export const NODE_USINGS = ['node12', 'node16', 'node20', 'node24'] as const;

export interface NodeHandlerOptions {
  /** `<runner root>/externals`; default: beside the job's `_work` (`<_work>/../externals`). */
  readonly externalsDir?: string;
  readonly killTimings?: KillTimings;
  /** The worker's environment the step inherits (default `process.env`); its `PATH` is where a missing runtime is looked for. */
  readonly baseEnvironment?: NodeJS.ProcessEnv;
}

/** `_work/_actions` → `<root>/externals` (the worker's `_work` is in the runner root). */
export function defaultExternalsDir(actionsDir: string): string {
  return resolve(actionsDir, '..', '..', 'externals');
}

/** The manifest of a JavaScript action, or undefined. */
export function nodeDefinitionOf(action: ResolvedAction): (ManifestDefinition & { readonly manifest: { readonly runs: NodeRuns } }) | undefined {
  const definition = actionDefinitionOf(action);
  if (definition?.kind !== 'manifest') return undefined;
  return (NODE_USINGS as readonly string[]).includes(definition.manifest.runs.using) ? (definition as ManifestDefinition & { readonly manifest: { readonly runs: NodeRuns } }) : undefined;
}

export function createNodeHandler(options: NodeHandlerOptions = {}): ActionHandler {
  const base = options.baseEnvironment ?? process.env;
  // The runner's PATH as it started: `$GITHUB_PATH` or a step's `env: PATH` never picks the node.
  const runnerPath = base['PATH'] ?? '';
  const postRegistered = new WeakSet<ResolvedAction>();
  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const { log } = context;
      const host = context.stepHost;
      if (host?.failure !== undefined) {
        log.error(host.failure);
        return { outcome: 'failed' };
      }
      const definition = nodeDefinitionOf(context.action);
      if (definition === undefined) {
        log.error(`The JavaScript action handler cannot run '${context.action.using}' (no JavaScript action metadata)`);
        return { outcome: 'failed' };
      }
      const runs = definition.manifest.runs;
      let inputs: Record<string, string>;
      try {
        inputs = actionInputs(context, definition);
      } catch (error) {
        log.error(error instanceof Error ? error.message : String(error));
        return { outcome: 'failed' };
      }
      printActionDetails(context, inputs);
      const local = context.step.reference.kind === 'repository' && context.step.reference.repositoryType.toLowerCase() === 'self';
      if (context.stage === 'main' && local && runs.pre !== undefined) log.warning(`\`pre\` execution is not supported for local action from '${definition.origin.display}'`);
      if (context.stage !== 'post' && runs.post !== undefined && !postRegistered.has(context.action)) {
        postRegistered.add(context.action);
        const name = context.step.displayName.replace(/^Pre /, '');
        context.registerPostStep({ displayName: `Post ${name}`, condition: runs.postIf, action: context.action });
      }
      const script = context.stage === 'main' ? runs.main : context.stage === 'pre' ? runs.pre : runs.post;
      if (script === undefined || script === '') return { outcome: 'succeeded' };
      const target = join(definition.directory, script);
      try {
        await access(target);
      } catch {
        log.error(`File not found: '${target}'`);
        return { outcome: 'failed' };
      }

      const extras = { ...inputEnvironment(inputs), ...actionPathEnvironment(context, definition.directory), ...context.actionsRuntime };
      const env = host === undefined ? processEnvironment(context, extras, base) : toStepEnvironment(processEnvironment(context, extras, { PATH: host.basePath }), host);
      delete env['NODE_ICU_DATA'];
      const runtime = nodeRuntimeFor(runs.using, context.environment, base);
      const externalsDir = options.externalsDir ?? defaultExternalsDir(context.directories.actions);
      const node = host === undefined
        ? await locateNode(runtime, { externalsDir, path: runnerPath, platform: context.platform })
        : await containerNode(host, runtime, externalsDir, env['PATH'] ?? '', context.signal);
      if ('error' in node) {
        log.error(node.error);
        return { outcome: 'failed' };
      }
      const scriptPath = host === undefined ? target : host.toStepPath(target);
      log.debug(`${node.path} "${scriptPath}" (${runtime}, ${node.source === 'externals' ? 'from externals' : 'the node on PATH'})`);
      try {
        const result = await (host === undefined ? runProcess : host.runProcess)({
          command: node.path,
          args: [scriptPath],
          cwd: host === undefined ? context.directories.workspace : host.toStepPath(context.directories.workspace),
          env,
          signal: context.signal,
          onStdout: (line) => log.processLine(line, 'stdout'),
          onStderr: (line) => log.processLine(line, 'stderr'),
          ...(options.killTimings === undefined ? {} : { killTimings: options.killTimings }),
        });
        if (result.aborted) return { outcome: 'canceled' };
        log.debug(`Node Action run completed with exit code ${result.exitCode ?? result.signal ?? 'unknown'}`);
        return { outcome: result.exitCode === 0 ? 'succeeded' : 'failed' };
      } catch (error) {
        if (!(error instanceof ProcessStartError)) throw error;
        log.error(error.message);
        return { outcome: 'failed' };
      }
    },
  };
}

/**
 * The node of a JavaScript action in the job container: the runner's `externals/<runtime>` as
 * mounted at `/__e` when the runner has it, else the `node` on the container's `PATH`.
 */
async function containerNode(host: StepHost, runtime: NodeRuntimeName, externalsDir: string, path: string, signal: AbortSignal): Promise<{ path: string; source: 'externals' | 'path' } | { error: string }> {
  const bundled = join(externalsDir, runtime, 'bin', 'node');
  try {
    await access(bundled);
    return { path: host.toStepPath(bundled), source: 'externals' };
  } catch {
    // Not downloaded (`--no-externals`): the container's own node.
  }
  try {
    const found = (await host.resolvePrograms(['node'], path, signal)).get('node');
    if (found !== undefined) return { path: found, source: 'path' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return { error: `${BUNDLED_NODE_MISSING(runtime)}: no '${bundled}' on the runner (mounted at '${host.toStepPath(bundled)}') and no 'node' on the job container's PATH` };
}
