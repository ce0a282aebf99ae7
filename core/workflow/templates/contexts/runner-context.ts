/**
 * The `runner` context ("Contexts reference → runner context"): `os` is `Linux`, `Windows` or
 * `macOS`; `arch` is `X86`, `X64`, `ARM` or `ARM64`; `debug` is present (as `1`) only when debug
 * logging is on; `environment` is `github-hosted` or `self-hosted`.
 */
import type { RunnerArch, RunnerContext, RunnerOs } from './context-types.js';

export interface RunnerContextInput {
  readonly name: string;
  readonly os: RunnerOs;
  readonly arch: RunnerArch;
  /** The runner's temporary directory (emptied at the start and end of each job). */
  readonly temp: string;
  readonly toolCache: string;
  readonly debug?: boolean;
  /** Default `self-hosted`: every svc runner is one the operator owns. */
  readonly environment?: 'github-hosted' | 'self-hosted';
  readonly workspace?: string;
}

export function buildRunnerContext(input: RunnerContextInput): RunnerContext {
  return {
    name: input.name,
    os: input.os,
    arch: input.arch,
    temp: input.temp,
    tool_cache: input.toolCache,
    ...(input.debug === true ? { debug: '1' as const } : {}),
    environment: input.environment ?? 'self-hosted',
    ...(input.workspace === undefined ? {} : { workspace: input.workspace }),
  };
}

/** `runner.os` for a Node.js `process.platform`; undefined for platforms runners do not run on. */
export function runnerOs(platform: string): RunnerOs | undefined {
  switch (platform) {
    case 'linux':
      return 'Linux';
    case 'win32':
      return 'Windows';
    case 'darwin':
      return 'macOS';
    default:
      return undefined;
  }
}

/** `runner.arch` for a Node.js `process.arch`; undefined for architectures runners do not run on. */
export function runnerArch(arch: string): RunnerArch | undefined {
  switch (arch) {
    case 'ia32':
      return 'X86';
    case 'x64':
      return 'X64';
    case 'arm':
      return 'ARM';
    case 'arm64':
      return 'ARM64';
    default:
      return undefined;
  }
}
