import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListenerExit, ListenerExitCode } from './exit-codes.js';
import type { MessageSource, ReceivedMessage } from './message-source.js';
import { MessagePoller } from './message-poller.js';
import { DEFAULT_TIMINGS, type ListenerTimings } from './timings.js';

const timings: ListenerTimings = { ...DEFAULT_TIMINGS, pollBackoffMs: [1, 2], pollBackoffLongMs: [1, 2] };

/** A legacy queue whose server refuses connections `down` times, then has one message. */
function source(down: number): { source: MessageSource; polls: () => number } {
  let polls = 0;
  const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
  return {
    polls: () => polls,
    source: {
      flow: 'legacy',
      createSession: async () => undefined,
      getMessage: async (): Promise<ReceivedMessage | undefined> => {
        polls += 1;
        if (polls <= down) throw refused();
        return { messageId: 1, messageType: 'PipelineAgentJobRequest', body: '{}' };
      },
      deleteMessage: async () => undefined,
      acknowledge: async () => undefined,
      deleteSession: async () => undefined,
      reset: () => undefined,
    },
  };
}

const term = (lines: string[]) => ({ line: (text = '') => void lines.push(text), success: (text: string) => void lines.push(text), section: () => undefined, error: (text: string) => void lines.push(text) });

describe('MessagePoller while the server is unreachable', () => {
  it('keeps polling through an outage (a server restart) and reports the reconnection', async () => {
    const lines: string[] = [];
    const queue = source(20);
    const poller = new MessagePoller(queue.source, term(lines), timings, { skipSessionRecover: false, env: {}, unreachableLimitMs: 60_000 });
    const message = await poller.next(new AbortController().signal);
    assert.equal(message.messageId, 1);
    assert.equal(queue.polls(), 21);
    assert.ok(lines.some((line) => line.includes('Runner reconnected.')));
  });

  it('an ephemeral runner gives up once the server has been unreachable for its bound', async () => {
    const lines: string[] = [];
    const queue = source(Number.POSITIVE_INFINITY);
    const poller = new MessagePoller(queue.source, term(lines), timings, { skipSessionRecover: false, env: {}, unreachableLimitMs: 30 });
    await assert.rejects(poller.next(new AbortController().signal), (error) => error instanceof ListenerExit && error.code === ListenerExitCode.TerminatedError);
    assert.ok(queue.polls() > 1);
    assert.ok(lines.some((line) => /Giving up: no message could be fetched for \d+ s/.test(line)), lines.join('\n'));
  });
});
