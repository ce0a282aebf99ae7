import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GuestLimits } from '../isolation-backend.js';

const CGROUP_ROOT = '/sys/fs/cgroup';

/** One cgroup directory per controller (v1) or one for both (v2), holding a guest's processes. */
export interface GuestCgroup {
  readonly enforced: readonly ('memory' | 'pids')[];
  /** The cgroup directories made (for a later server to remove them: removeCgroupDir). */
  readonly dirs: readonly string[];
  add(pid: number): void;
  remove(): Promise<void>;
}

interface Place {
  readonly dir: string;
  readonly memoryFile: string | undefined;
  readonly pidsFile: string | undefined;
}

/** Where this host lets us put a child cgroup with memory and pids limits (v2, else v1). */
function places(name: string): Place[] {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n').filter((line) => line !== '');
  const own = (controller: string) => lines.map((line) => line.split(':')).find((parts) => parts[1]?.split(',').includes(controller))?.[2];
  if (existsSync(join(CGROUP_ROOT, 'cgroup.controllers'))) {
    const path = lines.map((line) => line.split(':')).find((parts) => parts[0] === '0')?.[2] ?? '/';
    return [{ dir: join(CGROUP_ROOT, path, name), memoryFile: 'memory.max', pidsFile: 'pids.max' }];
  }
  const result: Place[] = [];
  const memory = own('memory');
  if (memory !== undefined && existsSync(join(CGROUP_ROOT, 'memory'))) result.push({ dir: join(CGROUP_ROOT, 'memory', memory, name), memoryFile: 'memory.limit_in_bytes', pidsFile: undefined });
  const pids = own('pids');
  if (pids !== undefined && existsSync(join(CGROUP_ROOT, 'pids'))) result.push({ dir: join(CGROUP_ROOT, 'pids', pids, name), memoryFile: undefined, pidsFile: 'pids.max' });
  return result;
}

/**
 * Creates the guest's cgroups and writes its limits where the host lets us (root, or a delegated
 * subtree). A limit that cannot be set is left out of `enforced`; nothing here throws.
 */
export function createGuestCgroup(name: string, limits: GuestLimits): GuestCgroup {
  const made: string[] = [];
  const enforced: ('memory' | 'pids')[] = [];
  const wanted = { memory: limits.memoryBytes, pids: limits.pids };
  try {
    for (const place of places(name)) {
      const settings: [('memory' | 'pids'), string, number][] = [];
      if (place.memoryFile !== undefined && wanted.memory !== undefined) settings.push(['memory', place.memoryFile, wanted.memory]);
      if (place.pidsFile !== undefined && wanted.pids !== undefined) settings.push(['pids', place.pidsFile, wanted.pids]);
      if (settings.length === 0) continue;
      try {
        mkdirSync(place.dir);
      } catch {
        continue;
      }
      made.push(place.dir);
      for (const [kind, file, value] of settings) {
        try {
          writeFileSync(join(place.dir, file), String(value));
          enforced.push(kind);
        } catch {
          // not delegated to us: reported as not enforced
        }
      }
    }
  } catch {
    // no readable /proc/self/cgroup: nothing enforced
  }
  return {
    enforced,
    dirs: made,
    add(pid) {
      for (const dir of made) writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    },
    async remove() {
      for (const dir of made) await removeWhenEmpty(dir);
    },
  };
}

/** Removes a guest cgroup another server made (an adopted guest's), under the cgroup root only. */
export async function removeCgroupDir(dir: string): Promise<void> {
  if (dir.startsWith(`${CGROUP_ROOT}/`) && !dir.includes('/../')) await removeWhenEmpty(dir);
}

/** A cgroup can be removed once its last process is reaped, which may lag its exit a little. */
async function removeWhenEmpty(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Which limits this host would enforce (a trial cgroup, removed at once). */
export async function probeLimits(): Promise<('memory' | 'pids')[]> {
  const trial = createGuestCgroup(`svc-probe-${process.pid}`, { memoryBytes: 1 << 30, pids: 1000 });
  await trial.remove();
  return [...trial.enforced];
}
