import type { Assignment, Completion, Engine, RunnerIdentity } from '../../core/engine/index.js';

/**
 * An in-process runner for engine tests: takes jobs through the dispatch port, as a real
 * runner would, and completes them with what `script` says for each job key.
 */
export type Script = (assignment: Assignment) => Completion | Promise<Completion>;

export interface TestRunner {
  readonly identity: RunnerIdentity;
  /** Job keys in the order this runner took them. */
  readonly taken: string[];
  /** Takes and completes jobs until none is queued for it. Returns how many it ran. */
  drain(script: Script): Promise<number>;
  /** Takes one job (or none) without completing it. */
  take(): Promise<Assignment | undefined>;
}

export function testRunner(engine: Engine, name = 'runner-1', labels: readonly string[] = ['self-hosted', 'linux', 'x64']): TestRunner {
  const identity: RunnerIdentity = { runnerId: `id-${name}`, runnerName: name, labels };
  const taken: string[] = [];
  const take = async () => {
    const assignment = await engine.acquireJob(identity, 60_000);
    if (assignment) taken.push(assignment.job.instanceId);
    return assignment;
  };
  return {
    identity,
    taken,
    take,
    async drain(script) {
      let count = 0;
      for (let assignment = await take(); assignment; assignment = await take()) {
        await engine.completeJob(assignment.job.id, identity.runnerId, await script(assignment));
        count++;
      }
      return count;
    },
  };
}

export const succeed: Script = () => ({ outcome: 'success' });
