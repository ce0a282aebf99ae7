/**
 * The container engine docker actions run with: `docker` on the step's `PATH`, else `podman`
 * (its command line is docker's). Without either, a docker step fails naming what is missing.
 */

export interface ContainerEngine {
  /** `docker` or `podman`. */
  readonly name: 'docker' | 'podman';
  /** The program's path. */
  readonly program: string;
}

export const ENGINE_NAMES = ['docker', 'podman'] as const;

/** The first engine found by `lookup` (a PATH search), or undefined. */
export function detectEngine(lookup: (name: string) => string | undefined): ContainerEngine | undefined {
  for (const name of ENGINE_NAMES) {
    const program = lookup(name);
    if (program !== undefined) return { name, program };
  }
  return undefined;
}

/** The step failure when neither engine is installed. */
export function missingEngineMessage(kind: string): string {
  return `${kind} needs a container engine, but neither 'docker' nor 'podman' was found on PATH. Install docker (or podman) on the runner's machine.`;
}
