/**
 * The GUIDs of a job message, derived instead of drawn: name-based UUIDs (RFC 4122 version 5,
 * SHA-1), so every node computes the same ids for the same job and attempt without storing them,
 * and a retried dispatch of the same attempt gets the same timeline. (github.com's job ids are
 * version-5 UUIDs too; its plan ids are not.)
 *
 * - plan id = timeline id (as on github.com): from the run id and the run attempt;
 * - job id (the job's timeline record, results backend id): from the plan id, the job's row id
 *   and the job's attempt, so a re-run job gets a fresh record;
 * - step ids (timeline records of the steps): from the job id and the step's position.
 */
import { createHash } from 'node:crypto';

/** Namespace of every id below (a fixed random UUID: ids never collide with another producer's). */
export const SVC_ID_NAMESPACE = '3c7c1f0e-5b8a-4e2d-9a61-7f4d2c9b8e15';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A version-5 UUID of `name` in `namespace` (lower-case, hyphenated, as the runner writes GUIDs). */
export function uuidV5(namespace: string, name: string): string {
  if (!GUID.test(namespace)) throw new TypeError(`not a GUID: '${namespace}'`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isGuid(value: string): boolean {
  return GUID.test(value);
}

/** The plan (and timeline) id of one attempt of a run. */
export function planIdFor(run: { readonly id: number; readonly runAttempt: number }): string {
  return uuidV5(SVC_ID_NAMESPACE, `plan/${run.id}/${run.runAttempt}`);
}

/** The job id (timeline record id) of one attempt of a job. */
export function jobIdFor(planId: string, job: { readonly id: number; readonly attempt: number }): string {
  return uuidV5(planId, `job/${job.id}/${job.attempt}`);
}

/** The timeline record id of the step at `index` (0-based) of the job's message. */
export function stepIdFor(jobId: string, index: number): string {
  return uuidV5(jobId, `step/${index}`);
}
