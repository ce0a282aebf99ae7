/**
 * The comparison: the runner calls the replay made (the official runner's sequence, with every
 * `location`/`base`+`path` already resolved to the route Fastify matched) must appear in
 * svc-runner's calls as an ordered subsequence on method + route template; svc-runner must get no
 * 4xx/5xx the replay did not get on the same route. A run of identical consecutive calls in the
 * corpus (long polls, timeline updates the official runner's queue may batch) counts as one.
 * svc-runner's other calls are reported as extras.
 *
 * Order is compared within a channel, because the official runner sends from concurrent parts:
 * the Listener process (registration, sessions, polls, the job lock) and the Worker process
 * (whose `connectionData`, the same route as the listener's, is told apart by its job token),
 * whose reports leave from independent queues that flush on their own timers (JobServerQueue:
 * timeline records, the live feed, log uploads; the results steps and the results logs). The
 * order between two channels is not part of the protocol, nor is how many calls a batching
 * queue makes: repeated calls are collapsed within a channel.
 */
import type { RecordedCall } from './recorder.js';

export interface SequenceComparison {
  readonly ok: boolean;
  /** Why it failed: the first corpus call not found in order, and every unexpected error. */
  readonly divergences: readonly string[];
  readonly expected: readonly string[];
  readonly actual: readonly string[];
  /** svc-runner's calls outside the matched subsequence (`key ×count`). */
  readonly extras: readonly string[];
}

/** A Worker's connectionData (worker-connect: the job token) is told apart from the listener's. */
const WORKER_CONNECT = ' (job token)';

export function callKey(call: RecordedCall): string {
  const key = `${call.method} ${call.route ?? `${call.path} (no route)`}`;
  return call.jobToken && /\/_apis\/connectionData$/.test(key) ? `${key}${WORKER_CONNECT}` : key;
}

/** The runner's calls (not the operator's), identical neighbours collapsed. */
export function runnerSequence(calls: readonly RecordedCall[]): string[] {
  const keys: string[] = [];
  for (const call of calls) {
    if (call.operator) continue;
    const key = callKey(call);
    if (keys[keys.length - 1] !== key) keys.push(key);
  }
  return keys;
}

/** The process or queue a call goes out on (see the file comment). */
export function channelOf(key: string): string {
  if (/\/feed$/.test(key)) return 'feed';
  if (/^PATCH .*\/timelines\/:timelineId\/records$/.test(key)) return 'timeline';
  if (/\/plans\/:planId\/logs/.test(key) || /\/attachments\//.test(key)) return 'logs';
  if (/WorkflowStepUpdateService\//.test(key)) return 'results-steps';
  if (/results\.services\.receiver\.Receiver\//.test(key) || /\/_results\/uploads\//.test(key)) return 'results-logs';
  if (/\/_apis\/distributedtask\/hubs\/|\/run-service\/completejob|\/runnerresolve\//.test(key) || key.endsWith(WORKER_CONNECT)) return 'worker';
  return 'listener';
}

/** The calls of one channel, identical neighbours collapsed. */
function channelKeys(keys: readonly string[], channel: string): { key: string; at: number }[] {
  const out: { key: string; at: number }[] = [];
  for (const [at, key] of keys.entries()) {
    if (channelOf(key) !== channel || out[out.length - 1]?.key === key) continue;
    out.push({ key, at });
  }
  return out;
}

export function compareSequences(corpus: readonly RecordedCall[], ours: readonly RecordedCall[], tailProbes = 0): SequenceComparison {
  const expected = runnerSequence(corpus).slice(0, tailProbes > 0 ? -tailProbes : undefined);
  const runnerCalls = ours.filter((call) => !call.operator);
  const actual = runnerCalls.map(callKey);
  const divergences: string[] = [];

  const used = new Set<number>();
  for (const channel of new Set(expected.map(channelOf))) {
    const wanted = channelKeys(expected, channel);
    let from = 0;
    for (const [index, { key, at }] of wanted.entries()) {
      let found = -1;
      for (let i = from; i < actual.length; i += 1) {
        if (actual[i] === key) {
          found = i;
          break;
        }
      }
      if (found === -1) {
        const before = index === 0 ? 'first' : `after '${wanted[index - 1]?.key ?? ''}'`;
        const elsewhere = actual.includes(key) ? ' (svc-runner makes it, but earlier)' : ' (svc-runner never makes it)';
        divergences.push(`[${channel}] corpus call ${at + 1}/${expected.length} '${key}' ${before} is missing${elsewhere}`);
        break;
      }
      used.add(found);
      from = found + 1;
    }
  }

  const allowed = new Set(corpus.filter((call) => !call.operator && call.status !== undefined).map((call) => `${callKey(call)} ${call.status}`));
  for (const call of runnerCalls) {
    if (call.status === undefined || call.status < 400) continue;
    if (!allowed.has(`${callKey(call)} ${call.status}`)) divergences.push(`'${callKey(call)}' answered ${call.status}, which the corpus does not expect`);
  }

  const counts = new Map<string, number>();
  for (const [index, key] of actual.entries()) if (!used.has(index) && !expected.includes(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  const extras = [...counts].map(([key, count]) => `${key} ×${count}`);
  return { ok: divergences.length === 0, divergences, expected, actual, extras };
}
