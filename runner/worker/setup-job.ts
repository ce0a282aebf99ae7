/**
 * "Set up job" (JobExtension.InitializeJob): the runner's banner, the token's permissions, the
 * workflow directory, the event file, the job-level `env` (workflow then job, later wins),
 * `defaults.run`, the actions every `uses:` step needs (an action nobody can run yet fails its
 * own step later, with `not_implemented: <kind> actions`; another resolution error fails the
 * job here), a `Pre <name>` step for each action with a `pre:` stage, and a pending record for
 * each step. A job with a container or services (container-plan.ts) needs Linux and a
 * container engine, or fails here naming what is missing; it gets an "Initialize containers"
 * step (container-steps.ts) right after this one, before any `Pre` step.
 */
import { hostname } from 'node:os';
import { TokenType } from '../../core/protocol/index.js';
import { NotImplementedError, RUN_USING, type ResolvedAction } from '../handlers/index.js';
import { actionServerOf } from './action-server.js';
import { evaluateContainers, planContainers, type ContainerPlan } from './container-plan.js';
import { initializeContainers } from './container-steps.js';
import { initialDisplayName } from './display-name.js';
import type { JobStep } from './job-message/index.js';
import { variable } from './job-message/index.js';
import type { RecordContext } from './record-context.js';
import { evaluateDefaultsRun, evaluateStepEnvironment } from './templates/evaluate-fields.js';
import type { PlannedStep, WorkerJob } from './worker-job.js';
import { prepareDirectories, writeEventFile } from './workspace.js';

export interface SetupInfo {
  readonly runnerVersion: string;
  readonly runnerName: string;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs "Set up job"; answers the planned steps, or undefined when the job cannot run (the record says why). */
export async function setUpJob(job: WorkerJob, info: SetupInfo): Promise<PlannedStep[] | undefined> {
  const record = job.createRecord('Set up job', 'runner', false);
  record.start();
  try {
    banner(job, record, info);
    record.write('Prepare workflow directory');
    await prepareDirectories(job.directories, job.message.workspace?.clean);
    const event = job.contexts.github['event'];
    job.contexts.setGithub('event_path', await writeEventFile(job.directories, event ?? {}));

    const scope = () => ({ contexts: job.stepContexts(job.state.envObject()), fileTable: job.message.fileTable, hashFiles: job.hashFiles });
    record.debug('Evaluating job-level environment variables');
    for (const token of job.message.environmentVariables) {
      for (const [name, value] of Object.entries(evaluateStepEnvironment(token, scope()))) job.state.env.set(name, value);
    }
    record.debug('Evaluating job container and service containers');
    const definitions = evaluateContainers(job.message, scope());
    let containers: ContainerPlan | undefined;
    if (definitions !== undefined) {
      containers = planContainers(definitions, job.platform, process.env['PATH'] ?? '');
      record.write(`Container engine: ${containers.engine.name} (${containers.engine.program})`);
    }
    record.debug('Evaluating job defaults');
    for (const token of job.message.defaults) {
      if (token.type !== TokenType.Mapping) throw new Error("Unexpected type encountered while reading 'defaults'. The type 'MappingToken' was expected.");
      const run = token.entries.find((entry) => entry.key.type === TokenType.String && entry.key.value.toLowerCase() === 'run');
      if (run === undefined) continue;
      const values = evaluateDefaultsRun(run.value, scope());
      const defaults: { shell?: string; workingDirectory?: string } = {};
      for (const [name, value] of Object.entries(values)) {
        if (value === '') continue;
        if (name.toLowerCase() === 'shell') defaults.shell = value;
        if (name.toLowerCase() === 'working-directory') defaults.workingDirectory = value;
      }
      job.state.defaults = defaults;
    }

    record.write('Prepare all required actions');
    const resolved = new Map<JobStep, ResolvedAction | Error>();
    for (const step of job.message.steps) resolved.set(step, await resolve(job, record, step));
    if (job.message.jobDisplayName.trim() !== '') record.write(`Complete job name: ${job.message.jobDisplayName}`);
    if (containers !== undefined) {
      job.containers.plan = containers;
      job.containers.initializeRecord = job.createRecord('Initialize containers', 'runner', false);
    }

    // Actions with a `pre:` get a `Pre <name>` step before the main steps, sharing the action's state.
    const pre: PlannedStep[] = [];
    const states = new Map<JobStep, Record<string, string>>();
    for (const step of job.message.steps) {
      const outcome = resolved.get(step);
      if (step.kind !== 'action' || outcome === undefined || outcome instanceof Error || outcome.pre === undefined) continue;
      const state: Record<string, string> = {};
      states.set(step, state);
      const preRecord = job.createRecord(`Pre ${initialDisplayName(step).name}`, outcome.using, false);
      pre.push({ stage: 'pre', record: preRecord, step, displayFinal: true, condition: outcome.pre.condition, resolved: outcome, state });
    }
    const planned: PlannedStep[] = [...pre];
    for (const step of job.message.steps) {
      const outcome = resolved.get(step) ?? new Error('the step was not prepared');
      if (step.kind !== 'action') {
        const name = step.displayName ?? step.name;
        const stepRecord = job.createRecord(name === '' ? step.controlType : name, 'runner', false, { id: step.id, refName: step.name });
        planned.push({ stage: 'main', record: stepRecord, step: { ...step, kind: 'action', reference: { kind: 'script' } }, displayFinal: true, condition: step.condition, resolved: outcome, state: {} });
        continue;
      }
      const display = initialDisplayName(step);
      const stepType = step.reference.kind === 'script' ? 'run' : outcome instanceof Error ? 'action' : outcome.using;
      const stepRecord = job.createRecord(display.name, stepType, false, { id: step.id, refName: step.name });
      if (step.background === true) stepRecord.warning('Background steps are not supported by svc-runner yet; this step runs in the foreground.');
      planned.push({ stage: 'main', record: stepRecord, step, displayFinal: display.final, condition: step.condition, resolved: outcome, state: states.get(step) ?? {} });
    }
    record.complete('succeeded');
    // A failed start fails the job: the steps' conditions see it (and `always()` steps in the job container fail).
    await initializeContainers(job);
    return planned;
  } catch (error) {
    record.error(messageOf(error));
    record.complete('failed');
    return undefined;
  }
}

function banner(job: WorkerJob, record: RecordContext, info: SetupInfo): void {
  record.write(`Current runner version: '${info.runnerVersion}'`);
  record.write(`Runner name: '${info.runnerName}'`);
  const group = variable(job.message, 'system.runnerGroupName')?.value;
  if (group !== undefined) record.write(`Runner group name: '${group}'`);
  record.write(`Machine name: '${hostname()}'`);
  const permissions = variable(job.message, 'system.github.token.permissions')?.value ?? '';
  if (permissions !== '') {
    try {
      const parsed = JSON.parse(permissions) as Record<string, unknown>;
      record.write('##[group]GITHUB_TOKEN Permissions');
      for (const [scope, level] of Object.entries(parsed)) record.write(`${scope}: ${String(level)}`);
      record.write('##[endgroup]');
    } catch (error) {
      record.write(`Fail to parse and display GITHUB_TOKEN permissions list: ${messageOf(error)}`);
    }
  }
  const secretSource = job.contexts.github['secret_source'];
  if (typeof secretSource === 'string' && secretSource !== '') record.write(`Secret source: ${secretSource}`);
  const cacheMode = variable(job.message, 'actions_cache_mode')?.value ?? '';
  if (cacheMode !== '') record.write(`Cache mode: ${cacheMode}`);
  if ((job.message.dependencies?.length ?? 0) > 0) record.write("Using locked action versions from the workflow's lockfile");
}

async function resolve(job: WorkerJob, record: RecordContext, step: JobStep): Promise<ResolvedAction | Error> {
  if (step.kind !== 'action') {
    return new NotImplementedError(`not_implemented: background step control (${step.controlType}) cannot run on svc-runner yet`);
  }
  if (step.reference.kind === 'script') return { using: RUN_USING };
  try {
    return await job.registry.resolve(step.reference, {
      directories: job.directories,
      signal: job.cancellation.signal,
      log: { processLine: (line) => record.write(line), write: (line) => record.write(line), debug: (m) => record.debug(m), error: (m, p) => record.error(m, p), warning: (m, p) => record.warning(m, p), notice: (m, p) => record.notice(m, p) },
      server: actionServerOf(job),
      references: job.message.steps.flatMap((other) => (other.kind === 'action' ? [other.reference] : [])),
      addMask: (value) => job.masker.add(value),
    });
  } catch (error) {
    if (error instanceof NotImplementedError) return error;
    throw error;
  }
}
