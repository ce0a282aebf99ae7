// runner/containers: the container engine (docker, else podman), the command lines of docker
// actions (build, pull, run with the runner's mounts and path translation), and the job's own
// containers (jobs.<id>.container, services): definitions, paths, arguments, engine client and
// their lifecycle (start, health, stop).
export { ENGINE_NAMES, detectEngine, missingEngineMessage } from './container-engine.js';
export type { ContainerEngine } from './container-engine.js';
export { CONTAINER_WORKSPACE, actionMounts, buildArguments, containerName, pullArguments, runArguments, toContainerPath } from './docker-commands.js';
export type { Mount, RunSpec } from './docker-commands.js';
export { ContainerDefinitionError, containerDefinitionOf, registryOf, serviceDefinitionsOf } from './container-definition.js';
export type { ContainerCredentials, ContainerDefinition } from './container-definition.js';
export { ContainerPaths, jobContainerMounts, parseVolume } from './job-container-paths.js';
export type { ContainerMount, RunnerPaths } from './job-container-paths.js';
export {
  CONFIG_ENV_FORMAT,
  HEALTH_FORMAT,
  containerDisplayName,
  createArguments,
  execArguments,
  healthBackoffSeconds,
  healthDecision,
  networkCreateArguments,
  networkName,
  networkPruneArguments,
  networkRemoveArguments,
  parsePorts,
  pathFromConfigEnv,
  removeArguments,
} from './container-arguments.js';
export type { CreateSpec, ExecSpec, HealthDecision } from './container-arguments.js';
export { EngineClient, engineUnavailable } from './engine-client.js';
export type { EngineCallOptions, EngineLog, EngineOutput } from './engine-client.js';
export { startContainers, stopContainers, waitHealthy } from './container-lifecycle.js';
export type { ContainerToStart, LifecycleLog, StartOptions, StartedContainer, StartedContainers } from './container-lifecycle.js';
