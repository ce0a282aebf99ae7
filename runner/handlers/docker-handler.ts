/**
 * Docker actions (`runs.using: docker`, a folder with only a Dockerfile, `uses: docker://image`),
 * after the runner's ContainerActionHandler, through the container engine on the step's `PATH`
 * (`docker`, else `podman`; neither → the step fails naming them). The image is built from the
 * action's Dockerfile or pulled, once per job; the stage's entrypoint (`entrypoint` /
 * `pre-entrypoint` / `post-entrypoint`, or the `entryPoint` input) runs with `args` (evaluated
 * over `inputs`, or the `args` input split as the runner's command line splits it), the step's
 * environment, `INPUT_*`, the runtime variables and the action's `env`, host paths translated to
 * the runner's mounts (runner/containers). Linux only, as on the runner.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { constants } from 'node:os';
import { actionDefinitionOf, type ActionDefinition } from '../actions/index.js';
import type { DockerRuns } from '../../core/workflow/index.js';
import {
  actionMounts,
  buildArguments,
  containerName,
  detectEngine,
  missingEngineMessage,
  pullArguments,
  runArguments,
  toContainerPath,
  type ContainerEngine,
} from '../containers/index.js';
import { splitArguments } from '../shells/index.js';
import { actionPathEnvironment, printActionDetails } from './action-details.js';
import { actionInputs, inputEnvironment } from './action-inputs.js';
import { evaluateMap, evaluateStrings, type TemplateScope } from './action-templates.js';
import type { ActionHandler, HandlerContext, HandlerResult, ResolvedAction, StepLog } from './handler-types.js';
import { processEnvironment, which } from './process-environment.js';
import { ProcessStartError, runProcess, type KillTimings } from './process-runner.js';

export interface DockerHandlerOptions {
  readonly killTimings?: KillTimings;
  /** The worker's environment the engine inherits (default `process.env`). */
  readonly baseEnvironment?: NodeJS.ProcessEnv;
}

type DockerDefinition = Extract<ActionDefinition, { kind: 'container' | 'manifest' }>;

function dockerRunsOf(definition: DockerDefinition): DockerRuns | undefined {
  return definition.kind === 'manifest' && definition.manifest.runs.using === 'docker' ? definition.manifest.runs : undefined;
}

function exitCodeOf(result: { exitCode: number | null; signal: NodeJS.Signals | null }): number {
  return result.exitCode ?? 128 + (result.signal === null ? 0 : (constants.signals[result.signal] ?? 0));
}

/** The runner's DockerInstanceLabel: 6 hex digits naming this runner's images and containers. */
function instanceLabel(context: HandlerContext): string {
  return createHash('sha256').update(context.directories.actions).digest('hex').slice(0, 6);
}

export function createDockerHandler(options: DockerHandlerOptions = {}): ActionHandler {
  const base = options.baseEnvironment ?? process.env;
  const postRegistered = new WeakSet<ResolvedAction>();
  /** Images prepared in this job: by Dockerfile path (built tag) or image (pulled). */
  const prepared = new Map<string, Promise<string | undefined>>();

  const engineCommand = async (context: HandlerContext, engine: ContainerEngine, args: readonly string[], env: Record<string, string>, cwd: string): Promise<number | undefined> => {
    try {
      const result = await runProcess({
        command: engine.program,
        args,
        cwd,
        env,
        signal: context.signal,
        onStdout: (line) => context.log.write(line),
        onStderr: (line) => context.log.write(line),
        ...(options.killTimings === undefined ? {} : { killTimings: options.killTimings }),
      });
      return result.aborted ? undefined : exitCodeOf(result);
    } catch (error) {
      if (!(error instanceof ProcessStartError)) throw error;
      context.log.error(error.message);
      return 1;
    }
  };

  /** The image to run, built or pulled once per job; undefined when that failed (the log says why). */
  const prepareImage = (context: HandlerContext, engine: ContainerEngine, definition: DockerDefinition, env: Record<string, string>, log: StepLog): Promise<string | undefined> => {
    const image = definition.kind === 'container' ? definition.image : (dockerRunsOf(definition)?.source ?? { kind: 'registry' as const, image: '' });
    const directory = definition.kind === 'manifest' ? definition.directory : (definition.directory ?? context.directories.workspace);
    const key = image.kind === 'dockerfile' ? `file:${resolve(directory, image.path)}` : `image:${image.image}`;
    let pending = prepared.get(key);
    if (pending === undefined) {
      pending = (async () => {
        if (image.kind === 'registry') {
          log.write(`##[group]Pull down action image '${image.image}'`);
          const code = await engineCommand(context, engine, pullArguments(image.image), env, context.directories.workspace);
          log.write('##[endgroup]');
          if (code !== 0) {
            if (code !== undefined) log.error(`Docker pull failed with exit code ${code}`);
            return undefined;
          }
          return image.image;
        }
        const dockerfile = resolve(directory, image.path);
        const tag = `${instanceLabel(context)}:${createHash('sha256').update(dockerfile).digest('hex').slice(0, 32)}`;
        log.write('##[group]Building docker image');
        log.write(`Dockerfile for action: '${dockerfile}'.`);
        const code = await engineCommand(context, engine, buildArguments(tag, dockerfile, dirname(dockerfile)), env, context.directories.workspace);
        log.write('##[endgroup]');
        if (code !== 0) {
          if (code !== undefined) log.error(`Docker build failed with exit code ${code}`);
          return undefined;
        }
        return tag;
      })();
      prepared.set(key, pending);
      pending.then((tag) => tag === undefined && prepared.delete(key), () => prepared.delete(key));
    }
    return pending;
  };

  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const { log } = context;
      const found = actionDefinitionOf(context.action);
      const definition = found?.kind === 'container' || found?.kind === 'manifest' ? found : undefined;
      const runs = definition === undefined ? undefined : dockerRunsOf(definition);
      if (definition === undefined || (definition.kind === 'manifest' && runs === undefined)) {
        log.error(`The docker action handler cannot run '${context.action.using}' (no container action metadata)`);
        return { outcome: 'failed' };
      }
      let inputs: Record<string, string>;
      try {
        inputs = definition.kind === 'manifest' ? actionInputs(context, definition, { container: true }) : { ...context.inputs };
      } catch (error) {
        log.error(error instanceof Error ? error.message : String(error));
        return { outcome: 'failed' };
      }
      printActionDetails(context, inputs);
      if (context.stage !== 'post' && runs?.postEntrypoint !== undefined && !postRegistered.has(context.action)) {
        postRegistered.add(context.action);
        context.registerPostStep({ displayName: `Post ${context.step.displayName.replace(/^Pre /, '')}`, condition: runs.postIf, action: context.action });
      }
      const entrypoint = context.stage === 'main' ? (runs?.entrypoint ?? inputs['entryPoint']) : context.stage === 'pre' ? runs?.preEntrypoint : runs?.postEntrypoint;
      if (context.stage !== 'main' && (entrypoint === undefined || entrypoint === '')) return { outcome: 'succeeded' };
      if (context.platform !== 'linux') {
        log.error('Container action is only supported on Linux');
        return { outcome: 'failed' };
      }

      const hostEnv = processEnvironment(context, {}, base);
      const engine = detectEngine((name) => which(name, hostEnv['PATH'] ?? '', context.platform));
      if (engine === undefined) {
        log.error(missingEngineMessage(`The docker action '${definition.origin.display}'`));
        return { outcome: 'failed' };
      }

      const scope: TemplateScope = {
        contexts: { ...context.contexts, inputs },
        fileTable: definition.kind === 'manifest' ? definition.fileTable : [],
        workspace: context.directories.workspace,
      };
      let args: string[];
      let actionEnv: Record<string, string>;
      try {
        args = runs?.args !== undefined ? evaluateStrings(runs.args, 'runs.args', scope) : splitArguments(inputs['args'] ?? '');
        actionEnv = runs?.env !== undefined ? evaluateMap(runs.env, 'runs.env', 'env', scope) : {};
      } catch (error) {
        log.error(error instanceof Error ? error.message : String(error));
        return { outcome: 'failed' };
      }

      const home = join(context.directories.temp, '_github_home');
      for (const dir of [home, join(context.directories.temp, '_github_workflow'), join(context.directories.temp, '_runner_file_commands')]) await mkdir(dir, { recursive: true });
      const container: Record<string, string> = { ...context.environment };
      for (const [name, value] of Object.entries(context.state)) container[`STATE_${name}`] = value;
      Object.assign(container, inputEnvironment(inputs));
      for (const [name, value] of Object.entries(actionEnv)) if (container[name] === undefined) container[name] = value;
      container['HOME'] = home;
      Object.assign(container, actionPathEnvironment(context, definition.directory), context.runtimeEnvironment, context.actionsRuntime);
      const mounts = actionMounts(context.directories.temp, context.directories.workspace);
      for (const [name, value] of Object.entries(container)) container[name] = toContainerPath(value, mounts);

      const image = await prepareImage(context, engine, definition, hostEnv, log);
      if (image === undefined) return { outcome: context.signal.aborted ? 'canceled' : 'failed' };
      const spec = runArguments({
        name: containerName(image, randomUUID().replaceAll('-', '').slice(0, 6)),
        label: instanceLabel(context),
        image,
        environment: Object.keys(container),
        ...(entrypoint === undefined || entrypoint === '' ? {} : { entrypoint }),
        mounts,
        args,
      });
      log.debug(`${engine.program} ${spec.join(' ')}`);
      try {
        const result = await runProcess({
          command: engine.program,
          args: spec,
          cwd: context.directories.workspace,
          env: { ...hostEnv, ...container },
          signal: context.signal,
          onStdout: (line) => log.processLine(line, 'stdout'),
          onStderr: (line) => log.processLine(line, 'stderr'),
          ...(options.killTimings === undefined ? {} : { killTimings: options.killTimings }),
        });
        if (result.aborted) return { outcome: 'canceled' };
        const code = exitCodeOf(result);
        log.debug(`Docker Action run completed with exit code ${code}`);
        return { outcome: code === 0 ? 'succeeded' : 'failed' };
      } catch (error) {
        if (!(error instanceof ProcessStartError)) throw error;
        log.error(error.message);
        return { outcome: 'failed' };
      }
    },
  };
}
