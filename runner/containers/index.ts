// runner/containers: the container engine (docker, else podman) and the command lines of docker
// actions (build, pull, run with the runner's mounts and path translation). Pure: callers run them.
export { ENGINE_NAMES, detectEngine, missingEngineMessage } from './container-engine.js';
export type { ContainerEngine } from './container-engine.js';
export { CONTAINER_WORKSPACE, actionMounts, buildArguments, containerName, pullArguments, runArguments, toContainerPath } from './docker-commands.js';
export type { Mount, RunSpec } from './docker-commands.js';
