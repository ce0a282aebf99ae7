import type { Writable } from 'node:stream';
import { apiRequest, ServerAnswerError, type ServerConnection } from '../../../core/kernel/cli/index.js';
import { followFeed } from './event-feed.js';
import { liveArea } from './live-area.js';
import { renderFrame, type FrameSize } from './render-frame.js';
import { changeLines, summaryLines } from './render-lines.js';
import { applyEvent, applyRunView, HOLD_MS, namesUnknownJob, newRunState, releaseOverdue, type RunChange, type RunState } from './run-state.js';
import type { RunWire } from './wire-types.js';

export interface FollowRunOptions {
  readonly connection: ServerConnection;
  readonly runId: number;
  readonly workflow: string;
  /** `--json`: the feed's lines go to stdout as received; the summary to stderr. */
  readonly json: boolean;
  /** The terminal's size when stdout is one (live view), else undefined (one line per change). */
  readonly terminal: (() => FrameSize) | undefined;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

export interface RunFollower {
  /** Resolves with the final state once the run is terminal. */
  readonly done: Promise<RunState>;
  /** Asks the server to cancel the run (Ctrl-C); following goes on until the run ends. */
  cancel(): Promise<void>;
  /** Stops following at once (a second Ctrl-C). */
  stop(): void;
}

const VIEW_POLL_MS = 1000;
const APPROVE_COMMAND = /svc approve \d+ --job \d+/;
const REDRAW_MS = 100;

/**
 * Follows a submitted run to its end: the event feed (reconnected and de-duplicated), the run
 * view for job names and, on a terminal, steps and durations (read once a second). Writes the
 * live view, plain lines or the raw feed, then a summary.
 */
export function followRun(options: FollowRunOptions): RunFollower {
  const state = newRunState(options.runId, options.workflow);
  const abort = new AbortController();
  const { stdout, stderr, connection, runId } = options;
  const area = options.terminal === undefined || options.json ? undefined : liveArea(stdout);
  const redraw = () => {
    if (area && options.terminal) area.draw(renderFrame(state, Date.now(), options.terminal()));
  };
  // A burst of feed lines redraws once: at most every REDRAW_MS.
  let redrawTimer: NodeJS.Timeout | undefined;
  const redrawSoon = () => {
    redrawTimer ??= setTimeout(() => {
      redrawTimer = undefined;
      redraw();
    }, REDRAW_MS);
  };
  const readView = async () => {
    try {
      const response = await apiRequest(connection, 'GET', `/api/v1/runs/${runId}`, undefined, { signal: abort.signal });
      applyRunView(state, (await response.json()) as RunWire);
    } catch (error) {
      // The view only adds names and steps; the feed carries the run. A lost server shows there.
      if (abort.signal.aborted) throw error;
    }
  };

  // The live view cuts lines to the terminal's width: the command that releases a job waiting
  // for approval is also said once above it, whole.
  const approvalsNoted = new Set<number>();
  const show = (changes: readonly RunChange[]) => {
    if (area) {
      for (const change of changes) {
        const command = change.kind === 'job' ? APPROVE_COMMAND.exec(change.reason ?? '')?.[0] : undefined;
        if (change.kind !== 'job' || command === undefined || approvalsNoted.has(change.job.id)) continue;
        approvalsNoted.add(change.job.id);
        note(`job ${change.job.name} waits for approval of its environment; to approve: ${command}`);
      }
    }
    if (area) redrawSoon();
    else for (const change of changes) for (const line of changeLines(state, change)) stdout.write(`${line}\n`);
  };

  const follow = async (): Promise<RunState> => {
    await readView();
    let ticker: NodeJS.Timeout | undefined;
    if (area) {
      redraw();
      ticker = setInterval(() => void readView().then(redraw, () => undefined), VIEW_POLL_MS);
    }
    // Lines held for an annotation that does not come are shown after HOLD_MS.
    const overdue = options.json ? undefined : setInterval(() => show(releaseOverdue(state, Date.now())), HOLD_MS / 3);
    try {
      const feed = followFeed(connection, runId, {
        signal: abort.signal,
        onReconnect: (attempt, why) => {
          if (attempt === 1 || attempt % 10 === 0) note(`the event feed dropped (${why}); reconnecting`);
        },
      });
      for await (const { raw, event } of feed) {
        if (options.json) {
          stdout.write(`${raw}\n`);
          continue;
        }
        if (namesUnknownJob(state, event)) await readView();
        show(applyEvent(state, event, Date.now()));
      }
    } finally {
      clearInterval(ticker);
      clearInterval(overdue);
      clearTimeout(redrawTimer);
    }
    await readView();
    const summary = summaryLines(state, Date.now());
    if (area) redraw();
    (options.json ? stderr : stdout).write(`${summary.join('\n')}\n`);
    return state;
  };

  const note = (text: string) => {
    area?.clear();
    stderr.write(`svc run: ${text}\n`);
    redraw();
  };

  return {
    done: follow(),
    async cancel() {
      state.cancelling = true;
      note(`cancelling run ${runId} (Ctrl-C again to stop waiting; the server still cancels it)`);
      try {
        // Read to its end: an answer left unread would hold its connection (and the process) open.
        await (await apiRequest(connection, 'POST', `/api/v1/runs/${runId}/cancel`)).text();
      } catch (error) {
        // Finished meanwhile: nothing to cancel, and the feed tells how it ended.
        if (error instanceof ServerAnswerError && error.status === 409) return;
        note(`could not cancel run ${runId}: ${(error as Error).message}`);
      }
    },
    stop() {
      abort.abort();
    },
  };
}
