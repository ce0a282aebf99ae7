import { jobCancellationBodySchema, MessageTypes, parseTimeSpan, type JobCancellationBody } from '../../core/protocol/index.js';
import { isAbort, wireValidator, type RunnerIdentity } from '../client/index.js';
import { applyJitConfig, type RunnerRoot } from '../config/index.js';
import { ListenerExit, ListenerExitCode } from './exit-codes.js';
import { JobAcquirer } from './job-acquisition.js';
import { parseJobMessage } from './job-message.js';
import { legacyJobServices, runServiceJobServices } from './job-reporting.js';
import { JobRun } from './job-run.js';
import { MessagePoller, RunnerGoneError } from './message-poller.js';
import { BrokerSource, isType, LegacySource, type MessageSource, type ReceivedMessage } from './message-source.js';
import { loadRunnerConfig, runnerConnections, type RunnerConfig, type RunnerConnections } from './runner-config.js';
import { openSession } from './session-opener.js';
import { stamp, type Terminal } from './terminal.js';
import { timingsFromEnv, type ListenerTimings } from './timings.js';
import { WorkerSupply } from './spare-worker.js';
import { startWorker, workerCommand, type WorkerCommand } from './worker-process.js';

/** The runner is asked to stop (first interrupt) or to stop now (second interrupt). */
export interface StopSignals {
  readonly requested: AbortSignal;
  readonly forced: AbortSignal;
}

export interface RunOptions {
  readonly root: RunnerRoot;
  /** `--once`: exit after the first job (also when `.runner` says ephemeral). */
  readonly once: boolean;
  /** `--jitconfig <blob>`: the three root files, written before anything else (§1.10). */
  readonly jitConfig?: string;
  readonly identity: RunnerIdentity;
  readonly term: Terminal;
  readonly stop: StopSignals;
  readonly worker?: WorkerCommand;
  readonly env?: NodeJS.ProcessEnv;
  readonly timings?: ListenerTimings;
}

/** `false` turns the spare worker off (it holds a node process, some tens of MB, while the runner idles). */
export const SPARE_WORKER_VARIABLE = 'SVC_RUNNER_SPARE_WORKER';

const checkCancellation = wireValidator<JobCancellationBody>(jobCancellationBodySchema);

/**
 * `svc-runner run` (Runner.cs RunAsync, §2.1-§2.9, §6.4, §6.6): a session on the legacy queue or
 * the broker (`useV2Flow` of `.runner`), the message loop, one job at a time in a worker, and the
 * orderly end: the running job wound down, the session deleted, an ephemeral runner's files
 * removed after its job. Resolves with the exit code.
 */
export async function runListener(options: RunOptions): Promise<number> {
  const { root, term, identity, stop } = options;
  const env = options.env ?? process.env;
  const timings = options.timings ?? timingsFromEnv(env);
  if (options.jitConfig !== undefined) await applyJitConfig(root, options.jitConfig);
  const config = await loadRunnerConfig(root);
  const runOnce = options.once || config.settings.ephemeral === true;
  const connections = runnerConnections(config, identity);
  const source = messageSource(config, connections, identity);
  const command = options.worker ?? workerCommand(env);
  const workers = new WorkerSupply(
    (prestarted) =>
      startWorker(command, config.root.dir, {
        env,
        prestarted,
        mirror: env['ACTIONS_RUNNER_PRINT_LOG_TO_STDOUT'] === 'true' ? (line) => term.line(line) : () => undefined,
      }),
    command.prestart === true && env[SPARE_WORKER_VARIABLE]?.trim().toLowerCase() !== 'false',
  );
  // The worker loads while the session opens (spare-worker.ts).
  workers.prepare();

  try {
    await openSession(source, term, timings, stop.requested);
  } catch (error) {
    workers.close();
    if (isAbort(error, stop.requested)) return ListenerExitCode.Success;
    if (error instanceof ListenerExit) return error.code;
    throw error;
  }
  if (options.once && config.settings.ephemeral !== true) {
    term.line("Warning: '--once' is going to be deprecated in the future, please consider using '--ephemeral' during runner registration.");
  }
  term.line(`Current runner version: '${identity.version}'`);
  term.line(`${stamp()}: Listening for Jobs`);

  const loop = new MessageLoop(config, connections, source, { ...options, env, timings, runOnce, workers });
  return loop.run();
}

function messageSource(config: RunnerConfig, connections: RunnerConnections, identity: RunnerIdentity): MessageSource {
  const { settings } = config;
  if (settings.useV2Flow === true && settings.serverUrlV2 !== undefined) return new BrokerSource(connections, settings, identity, settings.serverUrlV2);
  return new LegacySource(connections, settings, identity, config.key);
}

interface LoopOptions extends RunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly timings: ListenerTimings;
  readonly runOnce: boolean;
  readonly workers: WorkerSupply;
}

class MessageLoop {
  readonly #poller: MessagePoller;
  readonly #acquirer: JobAcquirer;
  readonly #abort = new AbortController();
  #current: JobRun | undefined;
  #runOnceJobReceived = false;
  #runOnceJobCompleted = false;
  #skipSessionDeletion = false;
  #removeLocalConfig = false;

  constructor(
    private readonly config: RunnerConfig,
    private readonly connections: RunnerConnections,
    private readonly source: MessageSource,
    private readonly options: LoopOptions,
  ) {
    const { term, timings, env } = options;
    this.#poller = new MessagePoller(source, term, timings, {
      skipSessionRecover: config.settings.skipSessionRecover === true,
      env,
      // An ephemeral runner (a pool guest) whose server stays away exits after the outage bound.
      ...(config.settings.ephemeral === true ? { unreachableLimitMs: timings.ephemeralUnreachableMs } : {}),
    });
    this.#acquirer = new JobAcquirer({
      source,
      runService: connections.runService,
      legacy: connections.legacy,
      identity: options.identity,
      term,
      timings,
      ephemeral: config.settings.ephemeral === true,
      status: () => this.#poller.status,
      diagnostic: (text) => this.#diagnostic(text),
    });
    options.stop.requested.addEventListener('abort', () => this.#abort.abort(options.stop.requested.reason), { once: true });
    options.stop.forced.addEventListener('abort', () => this.#current?.forceStop(), { once: true });
  }

  async run(): Promise<number> {
    let code: number = ListenerExitCode.Success;
    try {
      code = await this.#loop();
    } finally {
      await this.#cleanUp();
    }
    return code;
  }

  async #loop(): Promise<number> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      let message: ReceivedMessage | undefined;
      let skipDeletion = false;
      try {
        const polling = this.#poller.next(signal);
        const current = this.#current;
        if (this.#runOnceJobReceived && current !== undefined) {
          polling.catch(() => undefined);
          const first = await Promise.race([polling.then((m) => ({ m })), current.done.then(() => 'done' as const)]);
          if (first === 'done') {
            this.#runOnceJobCompleted = true;
            this.#abort.abort();
            return ListenerExitCode.Success;
          }
          message = first.m;
        } else {
          message = await polling;
        }
        const outcome = await this.#handle(message, signal);
        skipDeletion = outcome.skipDeletion;
        if (outcome.exit !== undefined) return outcome.exit;
      } catch (error) {
        if (signal.aborted && isAbort(error, signal)) break;
        if (error instanceof RunnerGoneError) {
          this.#skipSessionDeletion = true;
          this.#removeLocalConfig = true;
          return ListenerExitCode.Success;
        }
        if (error instanceof ListenerExit) return error.code;
        // A message the runner cannot read is logged and acknowledged; anything else is a bug.
        if (message === undefined) throw error;
        this.#diagnostic(`cannot handle message ${message.messageId} (${message.messageType}): ${(error as Error).message}`);
      } finally {
        if (!skipDeletion && message !== undefined) {
          await this.source.deleteMessage(message).catch((error: unknown) => this.#diagnostic(`deleting message ${message?.messageId}: ${(error as Error).message}`));
        }
      }
    }
    return ListenerExitCode.Success;
  }

  /** One message (Runner.cs message dispatch, §2.4). */
  async #handle(message: ReceivedMessage, signal: AbortSignal): Promise<{ skipDeletion: boolean; exit?: number }> {
    const { term } = this.options;
    if (isType(message, MessageTypes.AgentRefresh) || isType(message, MessageTypes.RunnerRefresh)) {
      // SPEC: svc-runner acknowledges refresh messages and never replaces its own binary.
      term.line(`${stamp()}: Received ${message.messageType}; svc-runner does not update itself, the message is acknowledged and ignored.`);
      return { skipDeletion: false };
    }
    if (isType(message, MessageTypes.PipelineAgentJobRequest) || isType(message, MessageTypes.RunnerJobRequest)) {
      if (this.#runOnceJobReceived) return { skipDeletion: true };
      let text = message.body;
      if (isType(message, MessageTypes.RunnerJobRequest)) {
        const acquired = await this.#acquirer.acquire(message.body, signal);
        if (acquired.kind === 'exit') {
          this.#runOnceJobCompleted = true;
          return { skipDeletion: false, exit: ListenerExitCode.Success };
        }
        if (acquired.kind === 'skipped') return { skipDeletion: false };
        text = acquired.text;
      }
      const idle = this.#current === undefined || this.#current.finished;
      this.#dispatch(text, message.messageType);
      // As the official listener orders it: the job's lock is renewed for the first time before
      // the message is deleted (and before the next poll). Not when a job still runs: its poll
      // must go on (cancellation), and this one's renewal waits for it.
      if (idle) await this.#current?.lockDecided;
      return { skipDeletion: false };
    }
    if (isType(message, MessageTypes.JobCancellation)) {
      const body = checkCancellation(JSON.parse(message.body), 'the JobCancellation message');
      const current = this.#current;
      const cancelled = current !== undefined && current.jobId === body.jobId.toLowerCase();
      if (cancelled) {
        term.line(`${stamp()}: Job ${current.job.jobDisplayName} was cancelled by the server.`);
        current.cancel(parseTimeSpan(body.timeout));
      }
      return { skipDeletion: this.#runOnceJobReceived && !cancelled };
    }
    if (isType(message, MessageTypes.RunnerShutdown)) {
      term.line(`${stamp()}: The server asked the runner to shut down.`);
      this.#skipSessionDeletion = true;
      return { skipDeletion: true, exit: ListenerExitCode.Success };
    }
    if (message.messageType === MessageTypes.ForceTokenRefresh) {
      this.source.reset();
      return { skipDeletion: false };
    }
    if (message.messageType === MessageTypes.RunnerRefreshConfig) {
      term.line(`${stamp()}: Received RunnerRefreshConfig; svc-runner keeps its configuration (configure it again to change it).`);
      return { skipDeletion: false };
    }
    this.#diagnostic(`received message ${message.messageId} with unsupported message type ${message.messageType}`);
    return { skipDeletion: false };
  }

  #dispatch(text: string, messageType: string): void {
    const { timings, term } = this.options;
    let job;
    try {
      job = parseJobMessage(text, messageType);
    } catch (error) {
      term.error(`${stamp()}: Cannot run the job: ${(error as Error).message}`);
      return;
    }
    const services = job.runService ? runServiceJobServices(this.connections.runService, job, timings) : legacyJobServices(this.connections.legacy, job, timings);
    const previous = this.#current?.done;
    const run = new JobRun(
      job,
      {
        term,
        timings,
        services,
        startWorker: () => this.options.workers.take(),
        onBusy: (busy) => this.#poller.setStatus(busy ? 'Busy' : 'Online'),
        diagnostic: (text) => this.#diagnostic(text),
      },
      previous,
    );
    this.#current = run;
    if (this.options.runOnce) this.#runOnceJobReceived = true;
    // The next job's worker loads once this one is over (not during it: it would take CPU from the job).
    else void run.done.finally(() => this.options.workers.prepare()).catch(() => undefined);
  }

  async #cleanUp(): Promise<void> {
    const { term, runOnce } = this.options;
    this.options.workers.close();
    const current = this.#current;
    if (current !== undefined) {
      if (this.options.stop.requested.aborted) current.shutdown();
      if (this.options.stop.forced.aborted) current.forceStop();
      await current.done.catch((error: unknown) => term.error(`${stamp()}: ${(error as Error).message}`));
    }
    if (!this.#skipSessionDeletion) {
      try {
        await this.source.deleteSession();
      } catch (error) {
        // An ephemeral runner may already be deleted server-side (a 401 here is expected, §6.4).
        if (!runOnce) this.#diagnostic(`deleting the session: ${(error as Error).message}`);
      }
    }
    if ((this.config.settings.ephemeral === true && this.#runOnceJobCompleted) || this.#removeLocalConfig) {
      const removed = await this.config.root.removeConfiguration();
      // As DeleteLocalRunnerConfig words it: the key goes with `.credentials`.
      for (const name of ['.credentials', '.runner'] as const) if (removed.includes(name)) term.success(`Removed ${name}`);
    }
  }

  #diagnostic(text: string): void {
    this.options.term.error(`${stamp()}: ${text}`);
  }
}
