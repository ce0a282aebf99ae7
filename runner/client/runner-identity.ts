import { arch, hostname, platform, release, type } from 'node:os';

/**
 * Who this runner says it is on the wire (RUNNER-PROTOCOL.md §0.3, §2.3.1): the runner version it
 * speaks (`runner_version` of versions.toml), the OS and architecture names of the official
 * runner (VarUtil.OS, VarUtil.OSArchitecture), its runtime id (`linux-x64`) and the User-Agent
 * `GitHubActionsRunner-<rid>/<version>` servers look for.
 */
export interface RunnerIdentity {
  /** The official runner version svc-runner speaks, e.g. `2.337.0`. */
  readonly version: string;
  /** svc-runner's own version (package.json). */
  readonly svcVersion: string;
  /** `Linux`, `macOS` or `Windows`. */
  readonly os: string;
  /** `X86`, `X64`, `ARM` or `ARM64`. */
  readonly architecture: string;
  /** e.g. `Linux 6.8.0-45-generic`. */
  readonly osDescription: string;
  readonly userAgent: string;
  /** `<machine> (PID: <pid>)`, the session's owner name. */
  readonly ownerName: string;
}

const OS_NAMES: Readonly<Record<string, string>> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };
const ARCH_NAMES: Readonly<Record<string, string>> = { x64: 'X64', ia32: 'X86', arm: 'ARM', arm64: 'ARM64' };
const RID_OS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'osx', win32: 'win' };

export function runnerIdentity(version: string, svcVersion: string): RunnerIdentity {
  const os = OS_NAMES[platform()] ?? platform();
  const architecture = ARCH_NAMES[arch()] ?? arch().toUpperCase();
  const rid = `${RID_OS[platform()] ?? platform()}-${arch()}`;
  const osDescription = `${type()} ${release()}`;
  return {
    version,
    svcVersion,
    os,
    architecture,
    osDescription,
    userAgent: `GitHubActionsRunner-${rid}/${version} (${osDescription}) svc-runner/${svcVersion}`,
    ownerName: `${hostname() || 'RUNNER'} (PID: ${process.pid})`,
  };
}
