import type { JobRecord } from '../model/records.js';
import { closeOpenSteps } from '../reporting/close-steps.js';
import { completeJob } from '../reporting/complete-job.js';
import type { EngineDb } from '../store/engine-db.js';
import { toJobRecord } from '../store/mappers.js';
import { loadJob, loadRun } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { lostRunnerReason } from './reasons.js';

/**
 * How long a job's runner may stay unheard after its last contact before a dead node's job is
 * failed: the runner renews its lock every 60 s and retries a failed renewal 5-15 s later, so
 * a runner that is alive and reaches another node (one URL in front of several) has renewed
 * through it by then, and its job is not touched.
 */
export const UNHEARD_AFTER_NODE_DEATH_MS = 75_000;
const BATCH = 100;

export interface DeadNodeJobsDependencies {
  readonly db: EngineDb;
  /** This node: never judged dead by itself. */
  readonly nodeId: string;
  readonly now: number;
  readonly tx: <T>(work: (uow: UnitOfWork) => Promise<T>) => Promise<T>;
  readonly advance: (uow: UnitOfWork, runId: number) => Promise<unknown>;
  readonly rowLocks: boolean;
}

/** The reason a job of a dead node fails with: GitHub's lost-runner wording, naming the node. */
export function deadNodeReason(job: JobRecord, node: string): string {
  return `${lostRunnerReason(job.runnerName)} The svc node '${node}' its runner last reported through stopped renewing its liveness lease, and the runner was not heard from through any other node since.`;
}

/**
 * The in-flight jobs of nodes whose liveness lease lapsed (crash, partition) or that stopped:
 * a job whose runner was last heard through such a node, and not for
 * UNHEARD_AFTER_NODE_DEATH_MS, fails with the reason naming the node, its open steps closed.
 * A runner that reports through a live node moved its job's `node_id` there when it renewed,
 * so it is never taken. Each job is re-checked in its transaction (still running, still
 * unheard, its node still not live), so a node coming back or a late renewal wins the race.
 */
export async function failDeadNodesJobs(deps: DeadNodeJobsDependencies): Promise<number> {
  const { db, now } = deps;
  const unheardSince = now - UNHEARD_AFTER_NODE_DEATH_MS;
  const dead = db
    .selectFrom('engine_nodes')
    .select('id')
    .where('id', '!=', deps.nodeId)
    .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]));
  const candidates = (
    await db.selectFrom('engine_jobs').selectAll().where('status', '=', 'in_progress').where('node_id', 'in', dead).where('heard_at', '<', unheardSince).limit(BATCH).execute()
  ).map(toJobRecord);
  let failed = 0;
  for (const job of candidates) {
    const node = job.nodeId;
    if (node === null) continue;
    const done = await deps.tx(async (uow) => {
      await loadRun(uow.tx, job.runId, deps.rowLocks);
      const current = await loadJob(uow.tx, job.id);
      if (!current || current.status !== 'in_progress' || current.nodeId !== node || (current.heardAt ?? 0) >= unheardSince) return false;
      const holder = await uow.tx.selectFrom('engine_nodes').select(['lease_owner', 'lease_expires_at']).where('id', '=', node).executeTakeFirst();
      if (holder && holder.lease_owner !== null && Number(holder.lease_expires_at) >= uow.now) return false;
      const moved = await completeJob(uow, current, undefined, { outcome: 'failure', reason: deadNodeReason(current, node) });
      if (!moved) return false;
      await closeOpenSteps(uow, current);
      await deps.advance(uow, job.runId);
      return true;
    });
    if (done) failed++;
  }
  return failed;
}
