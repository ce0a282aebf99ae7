/**
 * The command lines of a docker action, as the runner's ContainerActionHandler and
 * DockerCommandManager build them, as argument arrays (no shell in between):
 *
 * - `build -t <tag> -f <Dockerfile> <its folder>` for `image: Dockerfile`, `pull <image>` for
 *   `docker://` images;
 * - `run --name <n> --label <label> --workdir /github/workspace --rm -e NAME … -e GITHUB_ACTIONS=true
 *   [-e CI=true] [--entrypoint e] [--network n] -v … <image> <args…>`, the values of `-e NAME`
 *   coming from the engine's own environment (so secrets never appear in the command line), with
 *   the runner's mounts: the docker socket, `runner.temp` at `/github/runner_temp`,
 *   `_temp/_github_home` at `/github/home`, `_temp/_github_workflow` at `/github/workflow`,
 *   `_temp/_runner_file_commands` at `/github/file_commands`, `github.workspace` at
 *   `/github/workspace`; host paths in values are translated to those container paths.
 */
import { join } from 'node:path';

export const CONTAINER_WORKSPACE = '/github/workspace';

export interface Mount {
  readonly source: string;
  readonly target: string;
}

/** The runner's mounts for a job's directories. */
export function actionMounts(temp: string, workspace: string): Mount[] {
  return [
    { source: '/var/run/docker.sock', target: '/var/run/docker.sock' },
    { source: temp, target: '/github/runner_temp' },
    { source: join(temp, '_github_home'), target: '/github/home' },
    { source: join(temp, '_github_workflow'), target: '/github/workflow' },
    { source: join(temp, '_runner_file_commands'), target: '/github/file_commands' },
    { source: workspace, target: CONTAINER_WORKSPACE },
  ];
}

/** A host path (or a value starting with one) as the container sees it; other values unchanged. */
export function toContainerPath(value: string, mounts: readonly Mount[]): string {
  // The longest source first: `_temp/_github_home` before `_temp`.
  const ordered = [...mounts].filter((mount) => mount.source.startsWith('/') && mount.source !== mount.target).sort((a, b) => b.source.length - a.source.length);
  for (const mount of ordered) {
    if (value === mount.source) return mount.target;
    if (value.startsWith(`${mount.source}/`)) return `${mount.target}${value.slice(mount.source.length)}`;
  }
  return value;
}

export function buildArguments(tag: string, dockerfile: string, context: string): string[] {
  return ['build', '-t', tag, '-f', dockerfile, context];
}

export function pullArguments(image: string): string[] {
  return ['pull', image];
}

export interface RunSpec {
  readonly name: string;
  readonly label: string;
  readonly image: string;
  /** Names of the variables passed (`-e NAME`); their values are in the engine process's environment. */
  readonly environment: readonly string[];
  readonly entrypoint?: string;
  readonly network?: string;
  readonly mounts: readonly Mount[];
  readonly args: readonly string[];
}

export function runArguments(spec: RunSpec): string[] {
  const args = ['run', '--name', spec.name, '--label', spec.label, '--workdir', CONTAINER_WORKSPACE, '--rm'];
  for (const name of spec.environment) args.push('-e', name);
  args.push('-e', 'GITHUB_ACTIONS=true');
  if (!spec.environment.includes('CI')) args.push('-e', 'CI=true');
  if (spec.entrypoint !== undefined && spec.entrypoint !== '') args.push('--entrypoint', spec.entrypoint);
  if (spec.network !== undefined && spec.network !== '') args.push('--network', spec.network);
  for (const mount of spec.mounts) args.push('-v', `${mount.source}:${mount.target}`);
  args.push(spec.image, ...spec.args);
  return args;
}

/** A container name from an image (`alpine:3` → `alpine3_1a2b3c`), as the runner sanitises it. */
export function containerName(image: string, suffix: string): string {
  const base = image.replace(/[^A-Za-z0-9_.-]/g, '').replace(/^[^A-Za-z0-9]+/, '') || 'action';
  return `${base.slice(0, 60)}_${suffix}`;
}
