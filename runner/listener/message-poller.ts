import { isAbort, OAuthTokenError, randomBackoff, RunnerHttpError, sleep } from '../client/index.js';
import { ListenerExit, ListenerExitCode } from './exit-codes.js';
import type { MessageSource, ReceivedMessage } from './message-source.js';
import { openSession } from './session-opener.js';
import { stamp, type Terminal } from './terminal.js';
import type { ListenerTimings } from './timings.js';

/** The server says this runner is gone: the listener deletes its local configuration and stops (2.336+). */
export class RunnerGoneError extends Error {
  override readonly name = 'RunnerGoneError';
}

const QUIET_WINDOW_MS = 30 * 60_000;
const QUIET_LIMIT = 50;

/**
 * GetNextMessageAsync (§2.3.1, §2.5.2): long polls until a message arrives, with the status the
 * runner reports (`Online`, or `Busy` while a job runs: a status change aborts the poll in flight
 * and polls again), a new session on an expired one, and the runner's back-off on other errors.
 */
export class MessagePoller {
  #status: 'Online' | 'Busy' = 'Online';
  #statusChange: AbortController | undefined;
  #empty = 0;
  #emptySince = Date.now();

  constructor(
    private readonly source: MessageSource,
    private readonly term: Terminal,
    private readonly timings: ListenerTimings,
    private readonly options: {
      readonly skipSessionRecover: boolean;
      readonly env: NodeJS.ProcessEnv;
      /**
       * Gives up (exit code 1) once polls have failed for this long (ephemeral runners: a pool
       * guest whose server stays away exits instead of polling forever); undefined: never.
       */
      readonly unreachableLimitMs?: number;
    },
  ) {}

  get status(): 'Online' | 'Busy' {
    return this.#status;
  }

  setStatus(status: 'Online' | 'Busy'): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#statusChange?.abort();
  }

  async next(signal: AbortSignal): Promise<ReceivedMessage> {
    let failures = 0;
    let failingSince = 0;
    let reported = false;
    for (;;) {
      signal.throwIfAborted();
      const statusChange = new AbortController();
      this.#statusChange = statusChange;
      let message: ReceivedMessage | undefined;
      try {
        message = await this.source.getMessage(this.#status, AbortSignal.any([signal, statusChange.signal]));
        if (reported) this.term.line(`${stamp()}: Runner reconnected.`);
        failures = 0;
        reported = false;
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (statusChange.signal.aborted && isAbort(error, statusChange.signal)) continue;
        if (await this.#recoverSession(error, signal)) continue;
        this.#checkFatal(error);
        failures += 1;
        if (failures === 1) failingSince = Date.now();
        const limit = this.options.unreachableLimitMs;
        if (limit !== undefined && Date.now() - failingSince >= limit) {
          this.term.error(`${stamp()}: Giving up: no message could be fetched for ${Math.round((Date.now() - failingSince) / 1000)} s: ${(error as Error).message}`);
          throw new ListenerExit(ListenerExitCode.TerminatedError);
        }
        if (this.source.flow === 'broker' && failures >= this.timings.brokerMaxFailures) {
          this.term.error(`${stamp()}: Giving up after ${failures} consecutive failures to get a message: ${(error as Error).message}`);
          throw new ListenerExit(ListenerExitCode.TerminatedError);
        }
        if (!reported) {
          this.term.error(`${stamp()}: Runner connect error: ${(error as Error).message}. Retrying until reconnected.`);
          reported = true;
        }
        this.source.reset();
        const [min, max] = failures <= 5 ? this.timings.pollBackoffMs : this.timings.pollBackoffLongMs;
        await sleep(randomBackoff(min, max), signal);
        continue;
      } finally {
        this.#statusChange = undefined;
      }
      if (message !== undefined) return message;
      await this.#pauseOnQuickEmptyPolls(signal);
    }
  }

  /** An expired session is replaced (unless `.runner` says skipSessionRecover). */
  async #recoverSession(error: unknown, signal: AbortSignal): Promise<boolean> {
    const expired = error instanceof RunnerHttpError && (error.isVss('TaskAgentSessionExpiredException') || error.brokerErrorKind === 'RunnerSessionInvalid');
    if (!expired || this.options.skipSessionRecover) return false;
    await openSession(this.source, this.term, this.timings, signal);
    return true;
  }

  #checkFatal(error: unknown): void {
    if (error instanceof OAuthTokenError && error.registrationDeleted) {
      this.term.error('The runner registration has been deleted from the server, please re-configure.');
      throw new RunnerGoneError(error.message);
    }
    if (!(error instanceof RunnerHttpError)) return;
    if (error.isVss('TaskAgentNotFoundException') || error.brokerErrorKind === 'RunnerNotFound') {
      this.term.error('The runner no longer exists on the server. Cleaning up local configuration.');
      throw new RunnerGoneError(error.message);
    }
    if ((error.isVss('AccessDeniedException') && error.vssErrorCode === 1) || error.brokerErrorKind === 'RunnerVersionTooOld') {
      this.term.error(`The runner version is deprecated and cannot receive messages: ${error.message}`);
      const opted = this.options.env['ACTIONS_RUNNER_RETURN_VERSION_DEPRECATED_EXIT_CODE'] === 'true';
      throw new ListenerExit(opted ? ListenerExitCode.RunnerVersionDeprecated : ListenerExitCode.TerminatedError);
    }
    if (error.brokerErrorKind === 'HostedRunnerDeprovisioned') {
      this.term.line('Hosted runner has been deprovisioned. Shutting down.');
      throw new ListenerExit(ListenerExitCode.Success);
    }
    const fatal =
      error.isVss('TaskAgentPoolNotFoundException') ||
      error.isVss('TaskAgentSessionExpiredException') ||
      error.isVss('AccessDeniedException') ||
      error.isVss('TaskAgentAccessTokenExpiredException') ||
      error.status === 401;
    if (fatal) {
      this.term.error(`${stamp()}: Cannot get messages: ${error.message}`);
      throw new ListenerExit(ListenerExitCode.TerminatedError);
    }
  }

  /** More than 50 empty answers within 30 minutes: something is wrong server-side, pause 15–30 s. */
  async #pauseOnQuickEmptyPolls(signal: AbortSignal): Promise<void> {
    if (Date.now() - this.#emptySince > QUIET_WINDOW_MS) {
      this.#empty = 0;
      this.#emptySince = Date.now();
    }
    this.#empty += 1;
    if (this.#empty > QUIET_LIMIT) await sleep(randomBackoff(...this.timings.emptyPollPauseMs), signal);
  }
}
