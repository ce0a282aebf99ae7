/**
 * The job container's view of the runner's directories (ContainerInfo's path mappings and the
 * mounts ContainerOperationProvider adds on Linux): `_work` at `/__w` (so `_temp`, `_actions`,
 * `_tool` and the workspace are under it), a tool cache elsewhere at `/__t`, `externals` at
 * `/__e` (read-only), `_temp/_github_home` at `/github/home` and `_temp/_github_workflow` at
 * `/github/workflow` (these two win over `/__w`), and the engine's socket.
 */
import { join } from 'node:path';

export interface RunnerPaths {
  /** `_work`. */
  readonly work: string;
  /** `<runner root>/externals`. */
  readonly externals: string;
  /** `_work/_temp`. */
  readonly temp: string;
  /** `_work/_actions`. */
  readonly actions: string;
  /** `runner.tool_cache`. */
  readonly tools: string;
}

export interface ContainerMount {
  /** Empty for an anonymous volume. */
  readonly source: string;
  readonly target: string;
  readonly readOnly?: boolean;
}

interface PathMapping {
  readonly host: string;
  readonly container: string;
}

/** Host → container path translation for the job container (the first mapping that matches wins). */
export class ContainerPaths {
  readonly #mappings: PathMapping[];

  constructor(paths: RunnerPaths) {
    this.#mappings = [
      { host: join(paths.temp, '_github_home'), container: '/github/home' },
      { host: join(paths.temp, '_github_workflow'), container: '/github/workflow' },
      { host: paths.work, container: '/__w' },
      { host: paths.tools, container: '/__t' },
      { host: paths.externals, container: '/__e' },
    ];
  }

  /** A host path (or a value that starts with one) as the container sees it; anything else unchanged. */
  toContainer(value: string): string {
    for (const { host, container } of this.#mappings) {
      if (value === host) return container;
      if (value.startsWith(`${host}/`)) return `${container}${value.slice(host.length)}`;
    }
    return value;
  }

  /** The reverse translation (a container path the step printed back to the host). */
  toHost(value: string): string {
    for (const { host, container } of this.#mappings) {
      if (value === container) return host;
      if (value.startsWith(`${container}/`)) return `${host}${value.slice(container.length)}`;
    }
    return value;
  }
}

/** The runner's mounts of the job container, in the runner's order. */
export function jobContainerMounts(paths: RunnerPaths, translate: ContainerPaths): ContainerMount[] {
  const mount = (source: string, readOnly = false): ContainerMount => ({ source, target: translate.toContainer(source), ...(readOnly ? { readOnly } : {}) });
  return [
    { source: '/var/run/docker.sock', target: '/var/run/docker.sock' },
    mount(paths.work),
    mount(paths.externals, true),
    mount(paths.temp),
    mount(paths.actions),
    mount(paths.tools),
    mount(join(paths.temp, '_github_home')),
    mount(join(paths.temp, '_github_workflow')),
  ];
}

/** A user's `volumes:` entry (`source:target[:ro]`, `target:ro`, `target`), as the runner parses it. */
export function parseVolume(volume: string): ContainerMount {
  const parts = volume.split(':');
  if (parts.length === 3) return { source: parts[0] ?? '', target: parts[1] ?? '', ...(parts[2]?.toLowerCase() === 'ro' ? { readOnly: true } : {}) };
  if (parts.length === 2) {
    if (parts[1]?.toLowerCase() === 'ro') return { source: '', target: parts[0] ?? '', readOnly: true };
    return { source: parts[0] ?? '', target: parts[1] ?? '' };
  }
  return { source: '', target: volume };
}
