import type { ArtifactView } from '../artifacts/artifact-view.js';

/** A table: id, name, size, the job that uploaded it, when it was created and when it expires. */
export function formatArtifacts(runId: number, artifacts: readonly ArtifactView[]): string {
  if (artifacts.length === 0) return `run ${runId} has no artifacts\n`;
  const rows = [['ID', 'NAME', 'SIZE', 'JOB', 'CREATED', 'EXPIRES'], ...artifacts.map((a) => [String(a.id), a.name, humanSize(a.size), String(a.job_id), a.created_at, a.expires_at])];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return `${rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')).join('\n')}\n`;
}

/** `512 B`, `1.5 KiB`, `20.0 MiB`. */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}
