/**
 * A docker action's `runs.image`, read as the runner reads it: `docker://<image>` (any case) is
 * a registry image; a path whose last segment ends with `Dockerfile` or starts with
 * `Dockerfile.` (any case) is built; anything else is refused.
 */
import type { DockerImage } from './action-types.js';

const DOCKER_PREFIX = 'docker://';

export function dockerImage(image: string): DockerImage | undefined {
  if (image.toLowerCase().startsWith(DOCKER_PREFIX)) return { kind: 'registry', image: image.slice(DOCKER_PREFIX.length) };
  const last = (image.split('/').pop() ?? '').toLowerCase();
  if (last.startsWith('dockerfile.') || last.endsWith('dockerfile')) return { kind: 'dockerfile', path: image };
  return undefined;
}
