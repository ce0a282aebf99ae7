/**
 * Job messages wait in the store until a poll (legacy) or `acquirejob` (run service) hands them
 * out. They are stored without a job token: where the token goes (the SystemVssConnection's
 * `AccessToken`, `system.github.token`, its mask hint) they hold `JOB_TOKEN_SLOT`, and the token
 * is minted and put in at delivery. A message at rest therefore never holds a usable credential,
 * whatever becomes of its job.
 */
import type { JsonObject, JsonValue } from '../../../core/protocol/index.js';
import { escapeRegex } from './mask-hints.js';

/** Stands for the job token in a stored message (no regex metacharacters: its mask hint is itself). */
export const JOB_TOKEN_SLOT = 'svc-job-token-minted-at-delivery';

function fill(value: JsonValue, token: string): JsonValue {
  if (value === JOB_TOKEN_SLOT) return token;
  if (typeof value !== 'object' || value === null) return value;
  if (isList(value)) return value.map((item) => fill(item, token));
  // A mask hint (`{type: 'regex', value}`) gets the token as a regex that matches only itself.
  if (value['type'] === 'regex' && value['value'] === JOB_TOKEN_SLOT) return { ...value, value: escapeRegex(token) };
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, fill(member, token)]));
}

function isList(value: JsonObject | readonly JsonValue[]): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** The message with the job token in every place that holds the slot. */
export function withJobToken(message: JsonObject, token: string): JsonObject {
  return fill(message, token) as JsonObject;
}
