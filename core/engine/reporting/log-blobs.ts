import { text } from 'node:stream/consumers';
import type { BlobStore } from '../../ports/index.js';

/** Where a log chunk's lines are kept: `logs/<runId>/<jobId>/<seq>.log`. */
export function logBlobKey(runId: number, jobId: number, seq: number): string {
  return `logs/${runId}/${jobId}/${seq}.log`;
}

/**
 * One stored line per element: a line the runner sent with embedded line breaks becomes
 * several, so what is read back (and counted) are real lines. One trailing break is dropped.
 */
export function normalizeLines(lines: readonly string[]): string[] {
  return lines.flatMap((line) => line.replace(/\r?\n$/, '').split(/\r?\n/));
}

export function encodeLines(lines: readonly string[]): Buffer {
  return Buffer.from(lines.length === 0 ? '' : `${lines.join('\n')}\n`, 'utf8');
}

/** The lines of a stored chunk, or undefined when its blob is gone. */
export async function readChunkLines(blobs: BlobStore, key: string): Promise<string[] | undefined> {
  const stream = await blobs.get(key);
  if (!stream) return undefined;
  const body = await text(stream);
  if (body === '') return [];
  return body.replace(/\n$/, '').split('\n');
}
