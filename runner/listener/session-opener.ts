import { isAbort, OAuthTokenError, RunnerHttpError, sleep } from '../client/index.js';
import { ListenerExit, ListenerExitCode } from './exit-codes.js';
import type { MessageSource } from './message-source.js';
import { stamp, type Terminal } from './terminal.js';
import type { ListenerTimings } from './timings.js';

const REGISTRATION_DELETED =
  'Failed to create a session. The runner registration has been deleted from the server, please re-configure. Runner registrations are automatically deleted for runners that have not connected to the service recently.';

type Verdict = { readonly retry: true; readonly tracker?: 'conflict' | 'clock' } | { readonly retry: false; readonly code: number };

/**
 * Creates the session the way MessageListener.CreateSessionAsync does (§2.2, §2.5.1): generic
 * errors are retried every 30 s "until reconnected", a session conflict for 4 minutes (then exit
 * code 5), OAuth clock skew for 30 minutes; a deleted registration, a missing runner or pool,
 * access denied and a 401 that survives a new token are fatal.
 */
export async function openSession(source: MessageSource, term: Terminal, timings: ListenerTimings, signal: AbortSignal): Promise<void> {
  let reported = false;
  const tried = { conflict: 0, clock: 0 };
  for (;;) {
    try {
      await source.createSession(signal);
      term.line();
      term.success('Connected to GitHub');
      term.line();
      if (reported) term.line(`${stamp()}: Runner reconnected.`);
      return;
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      const verdict = classify(error, source, term);
      if (!verdict.retry) throw new ListenerExit(verdict.code);
      if (verdict.tracker !== undefined) {
        tried[verdict.tracker] += 1;
        const limit = verdict.tracker === 'conflict' ? timings.sessionConflictLimitMs : timings.clockSkewLimitMs;
        if (tried[verdict.tracker] * timings.sessionRetryMs >= limit) {
          term.error(
            verdict.tracker === 'conflict'
              ? `Stop retry on SessionConflictException after retried for ${limit / 1000} seconds.`
              : `Stopped retrying OAuth token request exception after ${limit / 1000} seconds.`,
          );
          throw new ListenerExit(verdict.tracker === 'conflict' ? ListenerExitCode.SessionConflict : ListenerExitCode.TerminatedError);
        }
      } else if (!reported) {
        term.error(`${stamp()}: Runner connect error: ${(error as Error).message}. Retrying until reconnected.`);
        reported = true;
      }
      source.reset();
      await sleep(timings.sessionRetryMs, signal);
    }
  }
}

function classify(error: unknown, source: MessageSource, term: Terminal): Verdict {
  if (error instanceof OAuthTokenError) {
    if (error.registrationDeleted) {
      term.error(REGISTRATION_DELETED);
      return { retry: false, code: ListenerExitCode.TerminatedError };
    }
    if (error.message.includes('Current server time is')) {
      term.error("The local machine's clock may be out of sync with the server time by more than five minutes. Please sync your clock with your domain or internet time and try again.");
      return { retry: true, tracker: 'clock' };
    }
    if (error.error !== 'server_error') {
      term.error(`Failed to create session. ${error.message}`);
      return { retry: false, code: ListenerExitCode.TerminatedError };
    }
    return { retry: true };
  }
  if (error instanceof RunnerHttpError) {
    const conflict = error.isVss('TaskAgentSessionConflictException') || (source.flow === 'broker' && error.status === 409);
    if (conflict) {
      term.error('A session for this runner already exists.');
      return { retry: true, tracker: 'conflict' };
    }
    if (error.isVss('TaskAgentNotFoundException')) {
      term.error('The runner no longer exists on the server. Please reconfigure the runner.');
      return { retry: false, code: ListenerExitCode.TerminatedError };
    }
    const fatal =
      error.isVss('TaskAgentPoolNotFoundException') ||
      error.isVss('AccessDeniedException') ||
      error.isVss('TaskAgentAccessTokenExpiredException') ||
      error.status === 401 ||
      (source.flow === 'broker' && error.status === 403);
    if (fatal) {
      term.error(`Failed to create session. ${error.message}`);
      return { retry: false, code: ListenerExitCode.TerminatedError };
    }
  }
  return { retry: true };
}
