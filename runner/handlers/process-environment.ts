/**
 * A step process's environment, layered as the official runner layers it (ScriptHandler and
 * ProcessInvoker): the worker's own environment, then the `env` context, `PATH` with the
 * `$GITHUB_PATH` entries in front, the handler's extras (inputs, runtime variables), the
 * `GITHUB_*`/`RUNNER_*` values from the contexts (these win over a user's `env:`), saved state
 * as `STATE_*`, and finally `GITHUB_ACTIONS=true` and `CI=true` (unless `CI` is set already).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HandlerContext } from './handler-types.js';

export function processEnvironment(
  context: Pick<HandlerContext, 'environment' | 'prependPath' | 'runtimeEnvironment' | 'state'>,
  extra: Readonly<Record<string, string>> = {},
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  Object.assign(env, context.environment);
  if (context.prependPath.length > 0) {
    const original = context.environment['PATH'] ?? base['PATH'] ?? '';
    env['PATH'] = [...context.prependPath, ...(original === '' ? [] : [original])].join(delimiter);
  }
  Object.assign(env, extra, context.runtimeEnvironment);
  for (const [name, value] of Object.entries(context.state)) env[`STATE_${name}`] = value;
  env['GITHUB_ACTIONS'] = 'true';
  if (context.environment['CI'] === undefined && base['CI'] === undefined) env['CI'] = 'true';
  return env;
}

/** The first executable called `name` on `path` (or `name` itself when it is a path); undefined when none. */
export function which(name: string, path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const extensions = platform === 'win32' ? ['', '.exe', '.cmd', '.bat'] : [''];
  const candidates = isAbsolute(name) || name.includes('/') ? [name] : path.split(delimiter).filter((dir) => dir !== '').map((dir) => join(dir, name));
  for (const candidate of candidates) {
    for (const extension of extensions) {
      try {
        accessSync(candidate + extension, constants.X_OK);
        if (statSync(candidate + extension).isFile()) return candidate + extension;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}
