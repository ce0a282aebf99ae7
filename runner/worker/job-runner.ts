/**
 * One job from its message to its result (JobRunner.RunAsync): the masker loaded with every
 * secret the message carries, the reporter of the message's mode, the job record started,
 * "Set up job", the steps, "Complete job", the job record completed, then the completion sent
 * (`JobCompleted` or `completejob`). A completion the server never acknowledged makes the
 * result `failed`, as the runner does.
 */
import { hostname } from 'node:os';
import type { TaskResultName } from '../../core/protocol/index.js';
import { CommandInterpreter, ProblemMatchers, UNSECURE_COMMANDS_VARIABLE } from '../commands/index.js';
import { createDefaultRegistry, type HandlerRegistry } from '../handlers/index.js';
import { createReporter, LogMasker, type DiagnosticLog, type FetchLike, type Reporter, type ReporterTimings } from '../reporting/index.js';
import { FOLLOW_SYMBOLIC_LINKS_OPTION, hashFilesSync } from '../shells/index.js';
import { runnerArch, runnerOs } from '../../core/workflow/index.js';
import type { JobCancellation } from './cancellation.js';
import { completeJobRecord, type JobEnd } from './complete-job.js';
import { stopJobContainers } from './container-steps.js';
import { JobContexts, memberOf } from './job-contexts.js';
import { variable, variableFlag, type JobMessage } from './job-message/index.js';
import { JobState } from './job-state.js';
import { RecordContext } from './record-context.js';
import { actionsRuntimeEnvironment } from './runtime-environment.js';
import { setUpJob } from './setup-job.js';
import { runSteps } from './steps-runner.js';
import type { WorkerJob, WorkerTimings } from './worker-job.js';
import { emptyDirectory, jobDirectories } from './workspace.js';
import { randomUUID } from 'node:crypto';

export interface JobRunOptions {
  readonly runnerRoot: string;
  readonly runnerName: string;
  readonly runnerVersion: string;
  readonly cancellation: JobCancellation;
  /** Handlers and resolver (default: the built-ins). */
  readonly registry?: HandlerRegistry;
  readonly platform?: NodeJS.Platform;
  readonly arch?: string;
  readonly now?: () => Date;
  readonly timings?: Partial<WorkerTimings>;
  readonly fetch?: FetchLike;
  readonly reporterTimings?: Partial<ReporterTimings>;
  readonly diagnostic?: DiagnosticLog;
  /** Where to report (default: the reporter of the message's mode); given the job's masker. */
  readonly reporter?: (masker: LogMasker) => Reporter;
  /** The runner's environment (default `process.env`): where `runner.tool_cache` comes from. */
  readonly environment?: NodeJS.ProcessEnv;
}

const SHUTDOWN_MESSAGES = {
  'runner-shutdown': 'The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.',
  'os-shutdown': `Operating system is shutting down for computer '${hostname()}'`,
} as const;

/**
 * Secret variables the runner never masks, even when sent as secrets (names compared without
 * case): their values are `true`/`false`, and masking those would hide every such word in the log.
 */
export const UNMASKED_SECRET_VARIABLES: ReadonlySet<string> = new Set(['actions_step_debug', 'actions_runner_debug']);

/** Every secret of the message into the masker (Worker.InitializeSecretMasker). */
export function loadSecrets(message: JobMessage, masker: LogMasker): void {
  for (const [name, entry] of message.variables) if (entry.isSecret && !UNMASKED_SECRET_VARIABLES.has(name.toLowerCase())) masker.addSecret(entry.value);
  for (const hint of message.mask) if (hint.type.toLowerCase() === 'regex') masker.addRegex(hint.value);
  for (const endpoint of message.endpoints) {
    for (const value of Object.values(endpoint.authorization?.parameters ?? {})) if (value !== '') masker.add(value);
  }
  const token = variable(message, 'system.github.token')?.value ?? '';
  if (token !== '') masker.add(Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64'));
}

function stepDebug(message: JobMessage, contexts: JobContexts): boolean {
  const flag = variableFlag(message, 'ACTIONS_STEP_DEBUG');
  if (flag !== undefined) return flag;
  const vars = contexts.context('vars');
  const value = typeof vars === 'object' && vars !== null && !Array.isArray(vars) ? memberOf(vars as Record<string, never>, 'ACTIONS_STEP_DEBUG') : undefined;
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

export async function runJob(message: JobMessage, options: JobRunOptions): Promise<TaskResultName> {
  const platform = options.platform ?? process.platform;
  const now = options.now ?? (() => new Date());
  const masker = new LogMasker();
  loadSecrets(message, masker);
  // The worker's own messages (reporting failures, which may quote what was sent) are masked like the log, as the runner's trace is.
  const writeDiagnostic = options.diagnostic ?? ((m: string) => process.stderr.write(`[svc-runner worker] ${m}\n`));
  const diagnostic = (m: string): void => writeDiagnostic(masker.mask(m));
  const token = message.systemConnection.authorization?.parameters['AccessToken'] ?? '';
  const orchestrationId = variable(message, 'system.orchestrationId')?.value ?? '';
  const reporter = options.reporter?.(masker) ?? createReporter({
    mode: message.mode,
    connection: { url: message.systemConnection.url, token },
    plan: message.plan,
    timelineId: message.timeline.id,
    jobId: message.jobId,
    requestId: message.requestId,
    ...(variable(message, 'system.github.results_endpoint')?.value ? { resultsEndpoint: variable(message, 'system.github.results_endpoint')?.value ?? '' } : {}),
    ...(message.billingOwnerId === undefined ? {} : { billingOwnerId: message.billingOwnerId }),
    workerName: options.runnerName,
    platform,
    masker,
    userAgent: `${orchestrationId === '' ? '' : `OrchestrationId/${orchestrationId} `}GitHubActionsRunner-svc/${options.runnerVersion}`,
    now,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.reporterTimings === undefined ? {} : { timings: options.reporterTimings }),
    diagnostic,
  });

  const contexts = new JobContexts(message);
  const repository = contexts.github['repository'];
  const directories = jobDirectories(options.runnerRoot, typeof repository === 'string' ? repository : '', options.environment);
  const debug = stepDebug(message, contexts);
  contexts.setGithub('workspace', directories.workspace);
  contexts.setRunner({
    name: options.runnerName,
    os: runnerOs(platform) ?? 'Linux',
    arch: runnerArch(options.arch ?? process.arch) ?? 'X64',
    environment: variable(message, 'system.runnerEnvironment')?.value || 'self-hosted',
    temp: directories.temp,
    toolCache: directories.tools,
    workspace: directories.runnerWorkspace,
    debug,
  });
  const state = new JobState();
  const jobRecord = new RecordContext(
    { id: message.jobId, parentId: null, type: 'Job', name: message.jobDisplayName, refName: message.jobName, order: null },
    { reporter, masker, debug, now },
  );
  let order = 0;
  let postReserved = false;
  // Post records count down from the reserved end in the order they are created (the first
  // registered runs last and shows last: "Stop containers", registered before any action's post).
  let postCreated = 0;
  const postSteps: WorkerJob['postSteps'] = [];
  // ACTIONS_ALLOW_UNSECURE_COMMANDS counts from the worker's environment or the step's `env`
  // context; the interpreter reads its options on every command, so the step loop updates this.
  const unsecure = { fromProcess: (process.env[UNSECURE_COMMANDS_VARIABLE] ?? '').toLowerCase() === 'true', fromStep: false };
  const job: WorkerJob = {
    message,
    state,
    contexts,
    directories,
    reporter,
    masker,
    interpreter: new CommandInterpreter({
      masker: masker.secrets,
      get allowUnsecureCommands() {
        return unsecure.fromProcess || unsecure.fromStep;
      },
      echo: debug,
      deprecateStepOutputCommands: variableFlag(message, 'DistributedTask.DeprecateStepOutputCommands') ?? false,
      enhancedAnnotations: variableFlag(message, 'DistributedTask.EnhancedAnnotations') ?? false,
      workspace: directories.workspace,
      platform,
    }),
    matchers: new ProblemMatchers({ workspace: directories.workspace, platform }),
    registry: options.registry ?? createDefaultRegistry(options.timings?.killTimings === undefined ? {} : { killTimings: options.timings.killTimings }),
    cancellation: options.cancellation,
    jobRecord,
    debug,
    platform,
    now,
    timings: { minuteMs: 60_000, ...options.timings },
    hashFiles: {
      hash: (patterns, hashOptions) => hashFilesSync(directories.workspace, hashOptions.followSymbolicLinks ? [FOLLOW_SYMBOLIC_LINKS_OPTION, ...patterns] : patterns),
    },
    actionsRuntime: actionsRuntimeEnvironment(message),
    containers: {},
    postSteps,
    createRecord(name, stepType, post, ids) {
      let recordOrder: number;
      if (post) {
        // The runner reserves as many orders again for post steps, so they show in running order.
        if (!postReserved) {
          postReserved = true;
          order *= 2;
        }
        recordOrder = order - postCreated++;
      } else {
        recordOrder = ++order;
      }
      const id = ids?.id ?? randomUUID();
      return new RecordContext(
        { id, parentId: message.jobId, type: 'Task', name, refName: ids?.refName ?? id.replaceAll('-', ''), order: recordOrder, stepType },
        { reporter, masker, debug, now },
      );
    },
    allowUnsecureCommandsFor(env) {
      unsecure.fromStep = (env[UNSECURE_COMMANDS_VARIABLE] ?? '').trim().toLowerCase() === 'true';
    },
    stepContexts(env, github) {
      return contexts.forStep({ env, steps: state.steps.toContext(), jobStatus: state.status, ...(github === undefined ? {} : { github }) });
    },
  };
  return run(job, options);
}

async function run(job: WorkerJob, options: JobRunOptions): Promise<TaskResultName> {
  const { jobRecord, cancellation } = job;
  jobRecord.start();
  const stopWatching = cancellation.onCancel((reason) => {
    if (reason !== 'cancel') jobRecord.error(SHUTDOWN_MESSAGES[reason]);
  });
  let end: JobEnd = { outputs: {} };
  try {
    const planned = await setUpJob(job, { runnerName: options.runnerName, runnerVersion: options.runnerVersion });
    if (planned === undefined) {
      job.state.merge(cancellation.requested && !cancellation.shutdown ? 'canceled' : 'failed');
    } else {
      await runSteps(job, planned);
      await stopJobContainers(job);
      end = completeJobRecord(job);
    }
  } catch (error) {
    jobRecord.error(error instanceof Error ? error.message : String(error));
    job.state.merge('failed');
    await stopJobContainers(job).catch(() => undefined);
  } finally {
    stopWatching();
  }
  let result = jobRecord.complete(job.state.result ?? 'succeeded');
  // runner.temp is emptied while the reports drain: nothing on the wire waits for it.
  const cleaned = emptyDirectory(job.directories.temp).catch(() => undefined);
  try {
    await job.reporter.completeJob({ result, outputs: end.outputs, ...(end.environment === undefined ? {} : { environment: end.environment }) });
  } catch (error) {
    (options.diagnostic ?? ((m: string) => process.stderr.write(`[svc-runner worker] ${m}\n`)))(job.masker.mask(error instanceof Error ? error.message : String(error)));
    result = 'failed';
  } finally {
    await job.reporter.close();
    await cleaned;
  }
  return result;
}
