/**
 * The built-in `run` handler (`run:` steps), after the official ScriptHandler: the header group
 * (`Run <first line>`, the script in cyan, `shell: <path> <arguments>`, the `env:` block), the
 * script written to `runner.temp` with the shell's extension, run from `working-directory`
 * (relative to `github.workspace`) with the shell's exact command line, every output line
 * through the command interpreter, and `Process completed with exit code N.` on failure.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveShell } from '../shells/index.js';
import type { ActionHandler, HandlerContext, HandlerResult } from './handler-types.js';
import { processEnvironment, which } from './process-environment.js';
import { ProcessStartError, runProcess, type KillTimings } from './process-runner.js';
import { toStepEnvironment } from './step-host.js';

/** The programs a shell can resolve to (the container is asked about these in one call). */
const SHELL_PROGRAMS = ['bash', 'sh', 'pwsh', 'powershell', 'python'];

export interface ScriptHandlerOptions {
  readonly killTimings?: KillTimings;
  /** The worker's environment the step inherits (default `process.env`). */
  readonly baseEnvironment?: NodeJS.ProcessEnv;
}

/** The script's first non-blank line, as the header and the step's display name show it. */
export function firstLine(script: string): string {
  const trimmed = script.replace(/^[ \t\r\n]+/, '');
  const end = trimmed.search(/[\r\n]/);
  return end >= 0 ? trimmed.slice(0, end) : trimmed;
}

export function createScriptHandler(options: ScriptHandlerOptions = {}): ActionHandler {
  const base = options.baseEnvironment ?? process.env;
  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const { inputs, log } = context;
      const host = context.stepHost;
      if (host?.failure !== undefined) {
        log.error(host.failure);
        return { outcome: 'failed' };
      }
      const script = inputs['script'] ?? '';
      // In the job container the step gets its own environment only, over the image's PATH.
      const env = host === undefined ? processEnvironment(context, {}, base) : toStepEnvironment(processEnvironment(context, {}, { PATH: host.basePath }), host);
      const path = env['PATH'] ?? '';
      const shellInput = nonEmpty(inputs['shell']);
      const defaultShell = shellInput === undefined ? nonEmpty(context.defaults.shell) : undefined;
      let programs: Map<string, string> | undefined;
      if (host !== undefined) {
        const custom = (shellInput ?? defaultShell ?? '').trim().split(/\s+/)[0] ?? '';
        try {
          programs = await host.resolvePrograms(custom === '' ? SHELL_PROGRAMS : [...SHELL_PROGRAMS, custom], path, context.signal);
        } catch (error) {
          log.error(messageOf(error));
          return { outcome: 'failed' };
        }
      }

      log.write(`##[group]Run ${firstLine(script)}`);
      for (const line of script.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n')) log.write(`\u001b[36;1m${line}\u001b[0m`);
      let shell;
      try {
        shell = resolveShell({
          shell: shellInput,
          defaultShell,
          platform: programs === undefined ? context.platform : 'linux',
          which: (name) => (programs === undefined ? which(name, path, context.platform) : (programs.get(name) ?? (name.startsWith('/') ? name : undefined))),
        });
      } catch (error) {
        log.write('##[endgroup]');
        log.error(messageOf(error));
        return { outcome: 'failed' };
      }
      log.write(shell.display);
      const shown = Object.entries(context.environment);
      if (shown.length > 0) {
        log.write('env:');
        for (const [name, value] of shown) log.write(`  ${name}: ${value}`);
      }
      log.write('##[endgroup]');

      const workingDirectory = resolve(
        context.directories.workspace,
        inputs['workingDirectory'] ?? context.defaults.workingDirectory ?? '',
      );
      const hostScriptPath = join(context.directories.temp, `${randomUUID()}${shell.scriptExtension}`);
      await writeFile(hostScriptPath, shell.prepareScript(script), 'utf8');
      const scriptPath = host === undefined ? hostScriptPath : host.toStepPath(hostScriptPath);
      log.debug(`${shell.command} ${shell.args.join(' ').replaceAll('{0}', scriptPath)}`);

      try {
        const result = await (host === undefined ? runProcess : host.runProcess)({
          command: shell.command,
          args: shell.args.map((arg) => arg.replaceAll('{0}', scriptPath)),
          cwd: host === undefined ? workingDirectory : host.toStepPath(workingDirectory),
          env,
          signal: context.signal,
          onStdout: (line) => log.processLine(line, 'stdout'),
          onStderr: (line) => log.processLine(line, 'stderr'),
          ...(options.killTimings === undefined ? {} : { killTimings: options.killTimings }),
        });
        if (result.aborted) return { outcome: 'canceled' };
        const code = result.exitCode ?? 128 + (result.signal === null ? 0 : (constants.signals[result.signal] ?? 0));
        if (code !== 0) {
          log.error(`Process completed with exit code ${code}.`);
          return { outcome: 'failed' };
        }
        return { outcome: 'succeeded' };
      } catch (error) {
        if (!(error instanceof ProcessStartError)) throw error;
        log.error(error.message);
        return { outcome: 'failed' };
      }
    },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
