import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** The start time (clock ticks since boot) of a process, from `/proc/<pid>/stat`; undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and parentheses): state is field 3, start time field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return fields[19];
  } catch {
    return undefined;
  }
}

/** The process `pid` runs (not a zombie) and is the one that started at `startTime`. */
export function processAlive(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}

const POLL_MS = 1000;

/** Resolves once the process is gone (polled: it is not our child). */
export async function waitUntilGone(pid: number, startTime: string): Promise<void> {
  while (processAlive(pid, startTime)) await delay(POLL_MS);
}
