/**
 * Job messages wait in the store until a poll (legacy) or `acquirejob` (run service) hands them
 * out. They are stored without a job token: where the token goes (the SystemVssConnection's
 * `AccessToken`, `system.github.token`, its mask hint) they hold `JOB_TOKEN_SLOT`, and the token
 * is minted and put in at delivery. A message at rest therefore never holds a usable credential,
 * whatever becomes of its job.
 */
import type { JsonObject } from '../../../core/protocol/index.js';
import { fillSlots } from './message-slots.js';

/** Stands for the job token in a stored message (no regex metacharacters: its mask hint is itself). */
export const JOB_TOKEN_SLOT = 'svc-job-token-minted-at-delivery';

/** The message with the job token in every place that holds the slot. */
export function withJobToken(message: JsonObject, token: string): JsonObject {
  return fillSlots(message, new Map([[JOB_TOKEN_SLOT, token]]));
}
