/**
 * Where a step's process runs (the runner's IStepHost): on the runner's machine (no step host in
 * the handler context: the default) or inside the job container (ContainerStepHost). A container
 * step host runs programs through `<engine> exec -i --workdir <dir> -e NAME … <id> <program>
 * <args>`, the values of `-e NAME` in the engine process's environment; host paths become
 * container paths (`/__w`, `/__e`, `/github/home`, …); programs are looked up in the container
 * (`command -v`), starting from the container image's `PATH`.
 */
import { execArguments, type ContainerPaths } from '../containers/index.js';
import { ProcessStartError, runProcess, type ProcessOptions, type ProcessResult } from './process-runner.js';

export interface StepHost {
  /** Set when the job container could not be started: every step fails with this message. */
  readonly failure?: string;
  /** The `PATH` a step starts from (the container's; `$GITHUB_PATH` entries go in front). */
  readonly basePath: string;
  /** A host path (or a value starting with one) as the step's process sees it. */
  toStepPath(value: string): string;
  /** Programs by name as `command -v` finds them on `path` inside the host (missing ones left out). */
  resolvePrograms(names: readonly string[], path: string, signal: AbortSignal): Promise<Map<string, string>>;
  /** Runs a program (its `command`, `cwd` and `args` already step paths); the environment is the step's only. */
  runProcess(options: ProcessOptions): Promise<ProcessResult>;
}

export interface ContainerStepHostOptions {
  /** The engine's program (`/usr/bin/docker`). */
  readonly engineProgram: string;
  readonly containerId: string;
  /** The container image's `PATH`. */
  readonly containerPath: string;
  readonly paths: ContainerPaths;
  /** The worker's environment the engine process inherits (default `process.env`). */
  readonly baseEnvironment?: NodeJS.ProcessEnv;
  /** Where the engine process itself runs (any directory of the host). */
  readonly hostDirectory: string;
}

function definedEntries(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) result[name] = value;
  return result;
}

const LOOKUP_SCRIPT = 'for n do p=$(command -v "$n") && printf "%s\\t%s\\n" "$n" "$p"; done; exit 0';

export function createContainerStepHost(options: ContainerStepHostOptions): StepHost {
  const base = definedEntries(options.baseEnvironment ?? process.env);
  const exec = (process: ProcessOptions) =>
    runProcess({
      ...process,
      command: options.engineProgram,
      args: execArguments({ containerId: options.containerId, workdir: process.cwd, environment: Object.keys(process.env), program: process.command, args: process.args }),
      cwd: options.hostDirectory,
      env: { ...base, ...process.env },
    });
  return {
    basePath: options.containerPath,
    toStepPath: (value) => options.paths.toContainer(value),
    async resolvePrograms(names, path, signal) {
      const found = new Map<string, string>();
      const result = await exec({
        command: 'sh',
        args: ['-c', LOOKUP_SCRIPT, 'sh', ...names],
        cwd: '/',
        env: { PATH: path },
        signal,
        onStdout: (line) => {
          const [name, program] = line.split('\t');
          if (name !== undefined && program !== undefined && program !== '') found.set(name, program);
        },
        onStderr: () => undefined,
      });
      if (result.exitCode !== 0 && !result.aborted) throw new ProcessStartError(`Could not look up programs in the job container ${options.containerId} (exit code ${result.exitCode ?? result.signal ?? 'unknown'})`);
      return found;
    },
    runProcess: exec,
  };
}

/** The step host of a job whose container could not be started: each step fails saying why. */
export function unavailableStepHost(failure: string): StepHost {
  return {
    failure,
    basePath: '',
    toStepPath: (value) => value,
    resolvePrograms: () => Promise.resolve(new Map()),
    runProcess: () => Promise.reject(new ProcessStartError(failure)),
  };
}

/** Every value of a step environment with host paths translated for the step host. */
export function toStepEnvironment(env: Readonly<Record<string, string>>, host: StepHost): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) result[name] = host.toStepPath(value);
  return result;
}
