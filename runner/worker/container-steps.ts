/**
 * The job's container steps (ContainerOperationProvider as JobExtension runs it):
 *
 * - "Initialize containers", right after "Set up job": the engine's daemon checked (`version`;
 *   unreachable → the step and the job fail saying so), then runner/containers starts the job
 *   container (with the runner's mounts, `HOME=/github/home`, the workspace as workdir, kept
 *   alive by `tail -f /dev/null`) and the services, waits for their health checks, and fills
 *   `job.container` (`id`, `network`) and `job.services.<name>` (`id`, `network`, `ports`).
 *   From then on `run:` steps and JavaScript actions run in the job container (its step host).
 *   It registers "Stop containers" (condition `always()`) first, so that step shows last.
 * - "Stop containers", after the post steps: every container started and the network removed.
 *
 * When the start fails, the job is failed; a later `always()` step that would run in the job
 * container fails saying the container is not running.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  ContainerPaths,
  EngineClient,
  engineUnavailable,
  jobContainerMounts,
  startContainers,
  stopContainers,
  type ContainerToStart,
  type LifecycleLog,
  type RunnerPaths,
  type StartedContainers,
} from '../containers/index.js';
import { createContainerStepHost, unavailableStepHost } from '../handlers/index.js';
import type { RecordContext } from './record-context.js';
import type { WorkerJob } from './worker-job.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function hostEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}

function lifecycleLog(record: RecordContext): LifecycleLog {
  return { write: (line) => record.write(line), warning: (message) => record.warning(message) };
}

/** The 6 hex digits labelling this runner's containers and networks (as its docker actions are labelled). */
export function instanceLabel(actionsDirectory: string): string {
  return createHash('sha256').update(actionsDirectory).digest('hex').slice(0, 6);
}

/** The runner's directories as the job container mounts them. */
export function runnerPathsOf(job: Pick<WorkerJob, 'directories'>): RunnerPaths {
  const { work, temp, actions, tools } = job.directories;
  return { work, externals: resolve(work, '..', 'externals'), temp, actions, tools };
}

/** `job.container` and `job.services` as the runner fills them once the containers run. */
export function containerContexts(started: StartedContainers): { container: Record<string, string>; services: Record<string, { id: string; network: string; ports: Record<string, string> }> } {
  const network = started.network ?? '';
  const jobContainer = started.containers.find((container) => container.service === undefined);
  const services: Record<string, { id: string; network: string; ports: Record<string, string> }> = {};
  for (const container of started.containers) {
    if (container.service !== undefined) services[container.service] = { id: container.id, network, ports: { ...container.ports } };
  }
  return { container: { ...(jobContainer === undefined ? {} : { id: jobContainer.id }), network }, services };
}

/** Runs "Initialize containers" when "Set up job" planned it; false when it failed (the job is failed). */
export async function initializeContainers(job: WorkerJob): Promise<boolean> {
  const state = job.containers;
  const { plan, initializeRecord: record } = state;
  if (plan === undefined || record === undefined) return true;
  record.start();
  state.stopRecord = job.createRecord('Stop containers', 'runner', true);
  const log = lifecycleLog(record);
  const client = new EngineClient(plan.engine, hostEnvironment(), job.directories.work, log);
  state.client = client;
  try {
    record.write(`##[group]Checking ${plan.engine.name} version`);
    const unavailable = await engineUnavailable(client, job.cancellation.signal);
    record.write('##[endgroup]');
    if (unavailable !== undefined) throw new Error(unavailable);

    const paths = runnerPathsOf(job);
    const translate = new ContainerPaths(paths);
    const containers: ContainerToStart[] = [];
    if (plan.job !== undefined) {
      for (const dir of [join(paths.temp, '_github_home'), join(paths.temp, '_github_workflow'), paths.externals]) await mkdir(dir, { recursive: true });
      containers.push({
        definition: plan.job,
        mounts: jobContainerMounts(paths, translate),
        workdir: translate.toContainer(job.directories.workspace),
        extraEnv: { HOME: translate.toContainer(join(paths.temp, '_github_home')) },
      });
    }
    for (const [service, definition] of plan.services) containers.push({ definition, service });
    const started: StartedContainers = { containers: [] };
    state.started = started;
    await startContainers(client, containers, started, { label: instanceLabel(job.directories.actions), temp: paths.temp, log, signal: job.cancellation.signal });

    const contexts = containerContexts(started);
    job.contexts.setJob('container', contexts.container);
    if (plan.services.size > 0) job.contexts.setJob('services', contexts.services);
    const jobContainer = started.containers.find((container) => container.service === undefined);
    if (jobContainer !== undefined) {
      state.stepHost = createContainerStepHost({ engineProgram: plan.engine.program, containerId: jobContainer.id, containerPath: jobContainer.path, paths: translate, hostDirectory: job.directories.work });
    }
    record.complete('succeeded');
    return true;
  } catch (error) {
    const message = job.cancellation.signal.aborted ? `Initialize containers was canceled: ${messageOf(error)}` : messageOf(error);
    record.error(message);
    record.complete(job.cancellation.requested && !job.cancellation.shutdown ? 'canceled' : 'failed');
    job.state.merge(job.cancellation.requested && !job.cancellation.shutdown ? 'canceled' : 'failed');
    if (plan.job !== undefined) state.stepHost = unavailableStepHost(`The job container is not running: ${message}`);
    return false;
  }
}

/** Runs "Stop containers" when "Initialize containers" registered it (once). */
export async function stopJobContainers(job: WorkerJob): Promise<void> {
  const state = job.containers;
  const record = state.stopRecord;
  if (record === undefined) return;
  delete state.stopRecord;
  record.start();
  try {
    if (state.client !== undefined && state.started !== undefined) await stopContainers(state.client, state.started, lifecycleLog(record));
    record.complete('succeeded');
  } catch (error) {
    record.warning(messageOf(error));
    record.complete('succeeded');
  }
}
