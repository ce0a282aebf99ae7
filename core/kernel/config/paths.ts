import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from './env-config.js';

/** Where state and configuration live by default (XDG base directories). */
export function defaultDataDir(env: Env): string {
  const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'svc');
}

export function defaultConfigFile(env: Env): string {
  const base = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'svc', 'config.toml');
}

export function absolute(path: string, cwd: string): string {
  return resolve(cwd, path);
}
