/**
 * The engine command lines of job and service containers, as DockerCommandManager builds them,
 * as argument arrays (no shell in between), and the parsers of what the engine answers:
 *
 * - `network create --label <label> github_network_<32 hex>`, `network rm`, `network prune`;
 * - `create --name --label [--workdir] --network [--network-alias] -p … <options…> -e NAME …
 *   -e GITHUB_ACTIONS=true [-e CI=true] -v … [--entrypoint] <image> <args…>`; unlike the
 *   runner, values of `-e` come from the engine process's environment (as `docker run` of docker
 *   actions does), so a secret in `env:` never shows in a command line;
 * - `exec -i --workdir <dir> -e NAME … <id> <program> <args…>` (ContainerStepHost);
 * - `port <id>` lines (`80/tcp -> 0.0.0.0:32768`) → `{ "80": "32768" }`;
 * - the `PATH` of `inspect --format {{range .Config.Env}}{{println .}}{{end}}`;
 * - the health status of `inspect --format {{if .Config.Healthcheck}}{{print .State.Health.Status}}{{end}}`.
 */
import { splitArguments } from '../shells/index.js';
import type { ContainerMount } from './job-container-paths.js';

export const HEALTH_FORMAT = '{{if .Config.Healthcheck}}{{print .State.Health.Status}}{{end}}';
export const CONFIG_ENV_FORMAT = '{{range .Config.Env}}{{println .}}{{end}}';

/** `github_network_` and 32 hex digits (a GUID without dashes), as the runner names it. */
export function networkName(guid: string): string {
  return `github_network_${guid.replaceAll('-', '').toLowerCase()}`;
}

export function networkCreateArguments(network: string, label: string): string[] {
  return ['network', 'create', '--label', label, network];
}

export function networkRemoveArguments(network: string): string[] {
  return ['network', 'rm', network];
}

export function networkPruneArguments(label: string): string[] {
  return ['network', 'prune', '--force', '--filter', `label=${label}`];
}

export function removeArguments(id: string): string[] {
  return ['rm', '--force', id];
}

/** `<alias>_<image without odd characters>_<6 hex>`: the container's `--name`. */
export function containerDisplayName(alias: string, image: string, suffix: string): string {
  const sanitized = image.replace(/[^A-Za-z0-9_-]/g, '');
  return `${alias}_${sanitized}_${suffix}`;
}

export interface CreateSpec {
  readonly name: string;
  readonly label: string;
  readonly image: string;
  readonly workdir?: string;
  readonly network: string;
  /** The service's name (services only). */
  readonly networkAlias?: string;
  readonly ports: readonly string[];
  /** The user's `options:` as written. */
  readonly options: string;
  /** Names of the container's variables (`-e NAME`); their values are in the engine process's environment. */
  readonly environment: readonly string[];
  readonly mounts: readonly ContainerMount[];
  readonly entrypoint?: string;
  readonly entrypointArgs: readonly string[];
}

function volumeArgument(mount: ContainerMount): string {
  const base = mount.source === '' ? mount.target : `${mount.source}:${mount.target}`;
  return mount.readOnly === true ? `${base}:ro` : base;
}

export function createArguments(spec: CreateSpec): string[] {
  const args = ['create', '--name', spec.name, '--label', spec.label];
  if (spec.workdir !== undefined && spec.workdir !== '') args.push('--workdir', spec.workdir);
  args.push('--network', spec.network);
  if (spec.networkAlias !== undefined && spec.networkAlias !== '') args.push('--network-alias', spec.networkAlias);
  for (const port of spec.ports) args.push('-p', port);
  args.push(...splitArguments(spec.options));
  for (const name of spec.environment) args.push('-e', name);
  args.push('-e', 'GITHUB_ACTIONS=true');
  if (!spec.environment.includes('CI')) args.push('-e', 'CI=true');
  for (const mount of spec.mounts) args.push('-v', volumeArgument(mount));
  if (spec.entrypoint !== undefined && spec.entrypoint !== '') args.push('--entrypoint', spec.entrypoint);
  args.push(spec.image, ...spec.entrypointArgs);
  return args;
}

export interface ExecSpec {
  readonly containerId: string;
  readonly workdir: string;
  /** Names passed with `-e NAME`; the values are in the engine process's environment. */
  readonly environment: readonly string[];
  readonly program: string;
  readonly args: readonly string[];
}

export function execArguments(spec: ExecSpec): string[] {
  const args = ['exec', '-i', '--workdir', spec.workdir];
  for (const name of spec.environment) args.push('-e', name);
  args.push(spec.containerId, spec.program, ...spec.args);
  return args;
}

/** `docker port` lines → container port (without protocol) → host port. */
export function parsePorts(lines: readonly string[]): Record<string, string> {
  const ports: Record<string, string> = {};
  for (const line of lines) {
    const match = /^\s*(\d+)(?:\/\w+)?\s*->\s*.*:(\d+)\s*$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) ports[match[1]] = match[2];
  }
  return ports;
}

/** The `PATH=` line of a container's configured environment, or empty. */
export function pathFromConfigEnv(lines: readonly string[]): string {
  for (const line of lines) if (line.startsWith('PATH=')) return line.slice('PATH='.length);
  return '';
}

export type HealthDecision = 'no-healthcheck' | 'wait' | 'healthy' | 'unhealthy';

/** What to do with a health status (`docker inspect` answers it with quotes kept as written). */
export function healthDecision(status: string | undefined): HealthDecision {
  const value = (status ?? '').trim().replace(/^"|"$/g, '').toLowerCase();
  if (value === '') return 'no-healthcheck';
  if (value === 'starting') return 'wait';
  return value === 'healthy' ? 'healthy' : 'unhealthy';
}

/**
 * Seconds before the next health check: the runner's exponential back-off between 2 and 32 s
 * (2, 4, 8, 16, 32, 32, …), without its random jitter.
 */
export function healthBackoffSeconds(retry: number): number {
  return Math.min(32, 2 * 2 ** Math.max(0, retry));
}
