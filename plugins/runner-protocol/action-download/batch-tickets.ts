/**
 * One batch of action download info (§5.5), whichever wire it came on (the legacy
 * `actiondownloadinfo`, the run service's `runnerresolve/actions`): the token's job is planned
 * again and every action of the batch must be admitted (admission.ts) — one that is not fails the
 * whole batch with `403` naming it — then each distinct action gets a ticket or a reason no
 * source holds it. A source that fails (the forge down) fails the batch with its 502/503.
 */
import type { Engine } from '../../../core/engine/index.js';
import { ForbiddenError, NotFoundError } from '../../../core/kernel/index.js';
import type { SnapshotStore } from '../../../core/ports/index.js';
import type { JobTokens, VerifiedJobToken } from '../auth/index.js';
import { planAssignment } from '../messages/index.js';
import { actionKey, admissionKey, type RemoteAction } from './action-refs.js';
import type { ActionTicket, ActionTickets } from './action-tickets.js';
import { admittedRemotes } from './admission.js';

export interface ActionDownloadDeps {
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  readonly jobTokens: JobTokens;
  readonly tickets: ActionTickets;
  /** `github.server_url`, as the run was planned with. */
  readonly serverUrl: () => string;
}

/** Largest batch taken (the runner sends the distinct actions of one job or one composite). */
export const MAX_BATCH = 200;
/** Actions issued at once: a first download of a batch reaches the forge a few at a time. */
const ISSUE_CONCURRENCY = 4;

export interface BatchAnswer {
  /** By `owner/repo@ref` as requested. */
  readonly tickets: Readonly<Record<string, ActionTicket>>;
  /** By `owner/repo@ref`: why no source holds it. */
  readonly unresolvable: Readonly<Record<string, string>>;
}

export async function ticketBatch(deps: ActionDownloadDeps, claims: VerifiedJobToken, actions: readonly RemoteAction[]): Promise<BatchAnswer> {
  const admitted = await admittedFor(deps, claims);
  const denied = actions.filter((action) => !admitted.has(admissionKey(action)));
  if (denied.length > 0) {
    throw new ForbiddenError(`the workflow does not declare ${[...new Set(denied.map(actionKey))].join(', ')}: no download tickets for this batch`, { code: 'action_not_declared' });
  }
  const distinct = new Map<string, RemoteAction>();
  for (const action of actions) if (!distinct.has(actionKey(action))) distinct.set(actionKey(action), action);
  const queue = [...distinct.entries()];
  const tickets: Record<string, ActionTicket> = {};
  const unresolvable: Record<string, string> = {};
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [key, action] = next;
      const outcome = await deps.tickets.issue(action);
      if ('ticket' in outcome) tickets[key] = outcome.ticket;
      else unresolvable[key] = outcome.unresolvable;
    }
  };
  await Promise.all(Array.from({ length: Math.min(ISSUE_CONCURRENCY, queue.length) }, worker));
  // Answer in the order asked, whatever order the downloads finished in.
  const keys = [...distinct.keys()];
  return { tickets: inOrder(keys, tickets), unresolvable: inOrder(keys, unresolvable) };
}

function inOrder<T>(keys: readonly string[], record: Readonly<Record<string, T>>): Record<string, T> {
  const result: Record<string, T> = {};
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined) result[key] = value;
  }
  return result;
}

/** Plans the token's job again and collects what its steps (and readable composites) admit. */
async function admittedFor(deps: ActionDownloadDeps, claims: VerifiedJobToken): Promise<ReadonlySet<string>> {
  const [run, job] = await Promise.all([deps.engine.getRun(claims.runId), deps.engine.getJob(claims.jobId)]);
  if (run === undefined || job === undefined || job.runId !== run.id) throw new NotFoundError(`plan ${claims.planId} has no job ${claims.jobRecordId}`, { code: 'plan_not_found' });
  if (job.attempt !== claims.attempt || job.runnerId === null) {
    throw new ForbiddenError(`attempt ${claims.attempt} of job ${claims.jobRecordId} is over`, { code: 'plan_terminated' });
  }
  const [files, runJobs] = await Promise.all([deps.engine.runFiles(run.id), deps.engine.listJobs(run.id)]);
  // Needs included: a job expanded from its needs (matrix from an output) only plans with them.
  // Only the steps are read: the token ceiling changes permissions, never which actions run.
  const { plan } = await planAssignment({ run, job, files, leaseExpiresAt: 0 }, runJobs, { serverUrl: deps.serverUrl(), ceiling: undefined });
  const uses = plan.instance.steps.flatMap((step) => {
    const value = (step as { readonly uses?: { readonly value?: unknown } }).uses?.value;
    return typeof value === 'string' ? [value] : [];
  });
  const snapshot = await deps.snapshots.hasCommit(run.repository, run.sha).catch(() => false);
  return admittedRemotes(uses, {
    ...(snapshot ? { local: (path: string) => deps.snapshots.readFile(run.repository, run.sha, path) } : {}),
    remote: (action, path) => deps.tickets.readFile(action, path),
  });
}
