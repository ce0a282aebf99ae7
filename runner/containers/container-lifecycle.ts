/**
 * Starting and stopping a job's containers (ContainerOperationProvider): stale networks of this
 * runner pruned, the job's network created, for each container (services first, then the job
 * container… in the order given) the image pulled (skipped when the engine has it already;
 * `credentials` through a throw-away `--config` directory and `login --password-stdin`),
 * created, started and checked running; service ports read back; the job container's `PATH`
 * read from its image; then each service's health check waited for. Stopping removes every
 * container started and the network, warning (never failing) on errors. Whatever was started
 * is recorded in `StartedContainers` as it happens, so a failed start is cleaned up too.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CONFIG_ENV_FORMAT,
  HEALTH_FORMAT,
  containerDisplayName,
  createArguments,
  healthBackoffSeconds,
  healthDecision,
  networkCreateArguments,
  networkPruneArguments,
  networkName,
  networkRemoveArguments,
  parsePorts,
  pathFromConfigEnv,
  removeArguments,
} from './container-arguments.js';
import { registryOf, type ContainerDefinition } from './container-definition.js';
import type { EngineClient } from './engine-client.js';
import { parseVolume, type ContainerMount } from './job-container-paths.js';

export interface ContainerToStart {
  readonly definition: ContainerDefinition;
  /** The service's name (its network alias); undefined for the job container. */
  readonly service?: string;
  /** Job container only: the runner's mounts, workdir, environment additions (`HOME`). */
  readonly mounts?: readonly ContainerMount[];
  readonly workdir?: string;
  readonly extraEnv?: Readonly<Record<string, string>>;
}

export interface StartedContainer {
  readonly service?: string;
  readonly name: string;
  readonly image: string;
  id: string;
  ports: Record<string, string>;
  /** The job container's `PATH` from its image configuration. */
  path: string;
}

export interface StartedContainers {
  network?: string;
  readonly containers: StartedContainer[];
}

export interface LifecycleLog {
  write(line: string): void;
  warning(message: string): void;
}

export interface StartOptions {
  readonly label: string;
  /** Where a registry login's `--config` directory is made (`runner.temp`). */
  readonly temp: string;
  readonly log: LifecycleLog;
  readonly signal: AbortSignal;
  /** Waits between health checks (tests shorten it). */
  readonly sleep?: (seconds: number) => Promise<void>;
}

function delay(seconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, seconds * 1000);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function failure(what: string, output: { code: number; error?: string; stderr: readonly string[] }): Error {
  const detail = output.error ?? output.stderr.at(-1);
  return new Error(`${what} failed with exit code ${output.code}${detail === undefined ? '' : `: ${detail}`}`);
}

async function pullImage(client: EngineClient, container: ContainerToStart, options: StartOptions): Promise<void> {
  const { image, credentials } = container.definition;
  const signal = options.signal;
  const inspect = await client.run(['image', 'inspect', '--format', '{{.Id}}', image], { quiet: true, signal });
  if (inspect.code === 0) {
    options.log.write(`Image '${image}' is present locally; not pulling it.`);
    return;
  }
  let config: string | undefined;
  try {
    if (credentials !== undefined) {
      config = join(options.temp, `.docker_${randomUUID()}`);
      await mkdir(config, { recursive: true });
      const server = registryOf(image);
      const login = await client.run(['--config', config, 'login', ...(server === '' ? [] : [server]), '-u', credentials.username, '--password-stdin'], { input: credentials.password, signal });
      if (login.code !== 0) throw failure(`Docker login for '${server === '' ? 'docker.io' : server}'`, login);
    }
    let last = await client.run([...(config === undefined ? [] : ['--config', config]), 'pull', image], { signal });
    for (let attempt = 1; attempt < 3 && last.code !== 0 && !signal.aborted; attempt++) {
      options.log.warning(`Docker pull failed with exit code ${last.code}, back off ${attempt * 2} seconds before retry.`);
      await (options.sleep ?? ((s: number) => delay(s, signal)))(attempt * 2);
      last = await client.run([...(config === undefined ? [] : ['--config', config]), 'pull', image], { signal });
    }
    if (last.code !== 0) throw failure(`Docker pull of '${image}'`, last);
  } finally {
    if (config !== undefined) await rm(config, { recursive: true, force: true });
  }
}

async function startOne(client: EngineClient, container: ContainerToStart, network: string, started: StartedContainers, options: StartOptions): Promise<void> {
  const { definition, service } = container;
  const { log, signal } = options;
  log.write(`##[group]${service === undefined ? 'Starting job container' : `Starting ${service} service container`}`);
  try {
    for (const volume of definition.volumes) {
      if (parseVolume(volume).source === '/') log.warning(`Volume mount ${volume} is going to mount '/' into the container which may cause file ownership change in the entire file system and cause Actions Runner to lose permission to access the disk.`);
    }
    await pullImage(client, container, options);
    const env = { ...definition.env, ...container.extraEnv };
    const name = containerDisplayName(service ?? 'job', definition.image, randomUUID().replaceAll('-', '').slice(0, 6));
    const created = await client.run(
      createArguments({
        name,
        label: options.label,
        image: definition.image,
        ...(container.workdir === undefined ? {} : { workdir: container.workdir }),
        network,
        ...(service === undefined ? {} : { networkAlias: service }),
        ports: definition.ports,
        options: definition.options,
        environment: Object.keys(env),
        mounts: [...(container.mounts ?? []), ...definition.volumes.map(parseVolume)],
        ...(service === undefined ? { entrypoint: 'tail' } : {}),
        entrypointArgs: service === undefined ? ['-f', '/dev/null'] : [],
      }),
      { env, signal },
    );
    const id = created.stdout.at(-1)?.trim() ?? '';
    if (created.code !== 0 || id === '') throw failure('Docker create', created);
    const record: StartedContainer = { ...(service === undefined ? {} : { service }), name, image: definition.image, id, ports: {}, path: '' };
    started.containers.push(record);
    const start = await client.run(['start', id], { signal });
    if (start.code !== 0) throw failure('Docker start', start);
    const running = await client.run(['ps', '--all', '--filter', `id=${id}`, '--filter', 'status=running', '--no-trunc', '--format', '{{.ID}} {{.Status}}'], { signal });
    if (!running.stdout.some((line) => line.startsWith(id))) {
      await client.run(['logs', '--details', id], { signal });
      log.warning(`Docker container ${id} is not in running state.`);
    }
    if (service !== undefined) {
      record.ports = parsePorts((await client.run(['port', id], { signal })).stdout);
    } else {
      record.path = pathFromConfigEnv((await client.run(['inspect', '--format', CONFIG_ENV_FORMAT, id], { quiet: true, signal })).stdout);
    }
  } finally {
    log.write('##[endgroup]');
  }
}

/** Waits for a service's health check as the runner does; throws when it ends other than healthy. */
export async function waitHealthy(client: EngineClient, container: StartedContainer, options: StartOptions): Promise<void> {
  const alias = container.service ?? container.name;
  const check = async () => (await client.run(['inspect', `--format=${HEALTH_FORMAT}`, container.id], { quiet: true, signal: options.signal })).stdout[0];
  let status = await check();
  let decision = healthDecision(status);
  if (decision === 'no-healthcheck') return;
  for (let retry = 0; decision === 'wait' && !options.signal.aborted; retry++) {
    const seconds = healthBackoffSeconds(retry);
    options.log.write(`${alias} service is starting, waiting ${seconds} seconds before checking again.`);
    await (options.sleep ?? ((s: number) => delay(s, options.signal)))(seconds);
    status = await check();
    decision = healthDecision(status);
  }
  if (decision === 'healthy') options.log.write(`${alias} service is healthy.`);
  else throw new Error(`Failed to initialize, ${alias} service is ${options.signal.aborted ? 'not ready (the job was canceled)' : (status ?? 'unknown').trim()}.`);
}

/** Starts the job's containers into `started`; throws (with `started` telling what to clean up) on failure. */
export async function startContainers(client: EngineClient, containers: readonly ContainerToStart[], started: StartedContainers, options: StartOptions): Promise<void> {
  const { log, signal } = options;
  log.write('##[group]Clean up resources from previous jobs');
  const stale = await client.run(['ps', '--all', '--quiet', '--no-trunc', '--filter', `label=${options.label}`], { signal });
  for (const id of stale.stdout) {
    const removed = await client.run(removeArguments(id.trim()), { signal });
    if (removed.code !== 0) log.warning(`Delete stale containers failed, docker rm fail with exit code ${removed.code} for container ${id}`);
  }
  const pruned = await client.run(networkPruneArguments(options.label), { signal });
  if (pruned.code !== 0) log.warning(`Delete stale container networks failed, docker network prune fail with exit code ${pruned.code}`);
  log.write('##[endgroup]');

  log.write('##[group]Create local container network');
  const network = networkName(randomUUID());
  const created = await client.run(networkCreateArguments(network, options.label), { signal });
  log.write('##[endgroup]');
  if (created.code !== 0) throw failure('Docker network create', created);
  started.network = network;

  for (const container of containers) await startOne(client, container, network, started, options);

  log.write('##[group]Waiting for all services to be ready');
  try {
    for (const container of started.containers) if (container.service !== undefined) await waitHealthy(client, container, options);
  } finally {
    log.write('##[endgroup]');
  }
}

/** Removes the containers and the network; failures are warnings. */
export async function stopContainers(client: EngineClient, started: StartedContainers, log: LifecycleLog): Promise<void> {
  for (const container of started.containers) {
    log.write(`Stop and remove container: ${container.name}`);
    const removed = await client.run(removeArguments(container.id));
    if (removed.code !== 0) log.warning(`Docker rm fail with exit code ${removed.code}`);
  }
  if (started.network !== undefined) {
    log.write(`Remove container network: ${started.network}`);
    const removed = await client.run(networkRemoveArguments(started.network));
    if (removed.code !== 0) log.warning(`Docker network rm failed with exit code ${removed.code}`);
  }
}
