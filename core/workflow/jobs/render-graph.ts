/**
 * `svc plan --graph`: the dependency graph drawn with boxes, one row of boxes per stage (stage 1
 * at the top), joined by lines from the jobs that later jobs need down to the next stage. Each
 * box names the job, its runner (or matrix size) and, exactly, the jobs it needs (a calling job by
 * its path): a stage can hold jobs that need different jobs above, which the lines alone would
 * not tell.
 */
import { jobGraph, stages } from './job-graph.js';
import { runnerText } from './render-stages.js';
import type { PlannedJob, WorkflowPlan } from './types.js';

const CONTENT_MAX = 34;
const DEFAULT_WIDTH = 100;

interface Box {
  readonly lines: readonly string[];
  readonly width: number;
  /** Some job in a later stage needs this one. */
  readonly needed: boolean;
}

export function renderGraph(plan: WorkflowPlan, width = DEFAULT_WIDTH): string {
  const needed = new Set(jobGraph(plan).flatMap((node) => node.waitsFor));
  const out: string[] = [];
  const groups = stages(plan);
  groups.forEach((group, index) => {
    const boxes = group.map((job) => box(job, job.waitsFor, needed.has(job.path)));
    const rows = wrap(boxes, Math.max(width, 20));
    rows.forEach((row, rowIndex) => {
      const last = rowIndex === rows.length - 1;
      out.push(...drawRow(row, last && index < groups.length - 1));
      if (last && index < groups.length - 1) out.push(...connector(row));
    });
  });
  return `${out.map((line) => line.trimEnd()).join('\n')}\n`;
}

function box(job: PlannedJob, waitsFor: readonly string[], needed: boolean): Box {
  const first = job.instances[0];
  const single = !job.matrix && job.strategy !== undefined && job.instances.length === 1 && first !== undefined;
  const lines = [single ? first.name : job.displayName];
  if (single) lines.push(runnerText(first));
  else if (job.strategy === undefined) lines.push('matrix after needs');
  else lines.push(`matrix × ${job.instances.length}`);
  if (waitsFor.length > 0) lines.push(`needs ${waitsFor.join(', ')}`);
  const clipped = lines.map((line) => (line.length > CONTENT_MAX ? `${line.slice(0, CONTENT_MAX - 1)}…` : line));
  return { lines: clipped, width: Math.max(...clipped.map((line) => line.length)) + 4, needed };
}

function wrap(boxes: readonly Box[], width: number): Box[][] {
  const rows: Box[][] = [];
  let current: Box[] = [];
  let used = 0;
  for (const item of boxes) {
    if (current.length > 0 && used + 1 + item.width > width) {
      rows.push(current);
      current = [];
      used = 0;
    }
    used += (current.length > 0 ? 1 : 0) + item.width;
    current.push(item);
  }
  if (current.length > 0) rows.push(current);
  return rows;
}

/** Box borders and content; the bottom border gets a tee where a line leaves (`teeOut`). */
function drawRow(row: readonly Box[], teeOut: boolean): string[] {
  const height = Math.max(...row.map((item) => item.lines.length));
  const lines: string[] = [row.map((item) => `┌${'─'.repeat(item.width - 2)}┐`).join(' ')];
  for (let i = 0; i < height; i++) {
    lines.push(row.map((item) => `│ ${(item.lines[i] ?? '').padEnd(item.width - 4)} │`).join(' '));
  }
  lines.push(
    row
      .map((item) => {
        const inner = '─'.repeat(item.width - 2).split('');
        if (teeOut && item.needed) inner[center(item) - 1] = '┬';
        return `└${inner.join('')}┘`;
      })
      .join(' '),
  );
  return lines;
}

/** The lines from the needed boxes of a row, merged into one arrow down to the next stage. */
function connector(row: readonly Box[]): string[] {
  const tees: number[] = [];
  let offset = 0;
  for (const item of row) {
    if (item.needed) tees.push(offset + center(item));
    offset += item.width + 1;
  }
  if (tees.length === 0) tees.push(Math.floor((offset - 1) / 2));
  const first = tees[0] as number;
  const last = tees[tees.length - 1] as number;
  // The joint sits halfway, or on a line next to it (`┬┴` would read as two lines).
  const half = Math.floor((first + last) / 2);
  const middle = tees.find((tee) => Math.abs(tee - half) <= 1) ?? half;
  const line = Array.from({ length: last + 1 }, () => ' ');
  if (first === last) {
    line[first] = '│';
  } else {
    for (let i = first; i <= last; i++) line[i] = '─';
    line[first] = '└';
    line[last] = '┘';
    for (const tee of tees.slice(1, -1)) line[tee] = '┴';
    line[middle] = tees.includes(middle) ? '┼' : '┬';
  }
  const arrow = `${' '.repeat(middle)}▼`;
  return [line.join(''), arrow];
}

function center(item: Box): number {
  return Math.floor(item.width / 2);
}
