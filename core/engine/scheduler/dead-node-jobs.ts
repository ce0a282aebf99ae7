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

/** How a job depends on a node: its runner was last heard through it, or its runner is a guest of its pool. */
export type NodeTie = 'heard' | 'home';

/** The reason a job of a dead node fails with: GitHub's lost-runner wording, naming the node. */
export function deadNodeReason(job: JobRecord, node: string, tie: NodeTie = 'heard'): string {
  const how = tie === 'home' ? 'whose built-in pool launched its runner' : 'its runner last reported through';
  return `${lostRunnerReason(job.runnerName)} The svc node '${node}' ${how} stopped renewing its liveness lease, and the runner was not heard from through any other node since.`;
}

/**
 * The in-flight jobs of nodes whose liveness lease lapsed (crash, partition) or that stopped:
 * a job whose runner was last heard through such a node, or is a guest of such a node's pool
 * (behind one URL a guest reports through any node, and a machine that dies takes its guests
 * with it), and not heard from for UNHEARD_AFTER_NODE_DEATH_MS, fails with the reason naming
 * the node, its open steps closed. A runner that is alive renews within that time, through
 * whichever node, so its job is never taken. Each job is re-checked in its transaction (still
 * running, still unheard, its node still not live), so a node coming back or a late renewal
 * wins the race.
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
    await db
      .selectFrom('engine_jobs')
      .selectAll()
      .where('status', '=', 'in_progress')
      .where((eb) => eb.or([eb('node_id', 'in', dead), eb('home_node_id', 'in', dead)]))
      .where('heard_at', '<', unheardSince)
      .limit(BATCH)
      .execute()
  ).map(toJobRecord);
  let failed = 0;
  for (const job of candidates) {
    const done = await deps.tx(async (uow) => {
      await loadRun(uow.tx, job.runId, deps.rowLocks);
      const current = await loadJob(uow.tx, job.id);
      if (!current || current.status !== 'in_progress' || (current.heardAt ?? 0) >= unheardSince) return false;
      const notLive = async (node: string | null): Promise<boolean> => {
        if (node === null || node === deps.nodeId) return false;
        const holder = await uow.tx.selectFrom('engine_nodes').select(['lease_owner', 'lease_expires_at']).where('id', '=', node).executeTakeFirst();
        return !(holder !== undefined && holder.lease_owner !== null && Number(holder.lease_expires_at) >= uow.now);
      };
      const tie: NodeTie | undefined = (await notLive(current.nodeId)) ? 'heard' : (await notLive(current.homeNodeId)) ? 'home' : undefined;
      if (tie === undefined) return false;
      const node = (tie === 'heard' ? current.nodeId : current.homeNodeId) as string;
      const moved = await completeJob(uow, current, undefined, { outcome: 'failure', reason: deadNodeReason(current, node, tie) });
      if (!moved) return false;
      await closeOpenSteps(uow, current);
      await deps.advance(uow, job.runId);
      return true;
    });
    if (done) failed++;
  }
  return failed;
}
