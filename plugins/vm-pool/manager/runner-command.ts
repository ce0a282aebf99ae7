import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, packageInfo } from '../../../core/kernel/index.js';

// Set by scripts/build.mjs in the production bundle.
declare const __SVC_BUNDLED__: boolean | undefined;

/** The program a guest runs and its first arguments; `run --once --runner-root <root>` follow. */
export interface RunnerCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Where it came from, for the log. */
  readonly source: 'SVC_POOL_RUNNER_COMMAND' | 'bundle' | 'source';
}

function onPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The bundled runner, run by the Node.js that runs the server: `dist/cli/svc-runner.js` next to
 * the bundle when the server runs from it; `cli/svc-runner.ts` through tsx (resolved here, since a
 * guest's working directory is its runner root, where `--import tsx` would not resolve) from
 * source; or the operator's SVC_POOL_RUNNER_COMMAND (words; a program name is looked up on PATH).
 */
export function resolveRunnerCommand(override: readonly string[] | undefined, path: string = process.env.PATH ?? ''): RunnerCommand {
  if (override !== undefined) {
    const [program, ...args] = override;
    if (program === undefined) throw new ConfigError('SVC_POOL_RUNNER_COMMAND is empty');
    const command = isAbsolute(program) ? program : program.includes('/') ? undefined : onPath(program, path);
    if (command === undefined || !existsSync(command)) {
      throw new ConfigError(`SVC_POOL_RUNNER_COMMAND: '${program}' is not an absolute path or a program on PATH; give the command that starts svc-runner, e.g. /usr/local/bin/svc-runner`);
    }
    return { command, args, source: 'SVC_POOL_RUNNER_COMMAND' };
  }
  if (typeof __SVC_BUNDLED__ !== 'undefined' && __SVC_BUNDLED__) {
    const bundled = fileURLToPath(new URL('./svc-runner.js', import.meta.url));
    if (!existsSync(bundled)) throw new ConfigError(`the built-in pool runs ${bundled}, which is missing from this build; rebuild, or set SVC_POOL_RUNNER_COMMAND`);
    return { command: process.execPath, args: [bundled], source: 'bundle' };
  }
  return {
    command: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), join(packageInfo().root, 'cli', 'svc-runner.ts')],
    source: 'source',
  };
}
