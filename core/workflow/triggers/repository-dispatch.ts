/**
 * The body of a repository dispatch request (spec: "Dispatch request bodies"): `event_type` is
 * a string of 1 to 100 Unicode characters, `client_payload` must be an object when present.
 * The event type becomes the event's activity type for `on.repository_dispatch.types`.
 */
import { isObject } from './on-section.js';
import type { JsonObject, JsonValue } from './types.js';

export const EVENT_TYPE_MAX_CHARACTERS = 100;

export interface BodyIssue {
  readonly field: 'body' | 'event_type' | 'client_payload';
  readonly message: string;
}

export type RepositoryDispatchBody =
  | { readonly ok: true; readonly eventType: string; readonly clientPayload: JsonObject | undefined }
  | { readonly ok: false; readonly errors: readonly BodyIssue[] };

export function checkRepositoryDispatchBody(body: JsonValue | undefined): RepositoryDispatchBody {
  if (!isObject(body)) return { ok: false, errors: [{ field: 'body', message: 'the body must be a JSON object' }] };
  const errors: BodyIssue[] = [];
  const eventType = body['event_type'];
  if (typeof eventType !== 'string') {
    errors.push({ field: 'event_type', message: 'event_type is required and must be a string' });
  } else {
    // Unicode characters, not UTF-16 units: an emoji counts once.
    const length = Array.from(eventType).length;
    if (length === 0) errors.push({ field: 'event_type', message: 'event_type must not be empty' });
    if (length > EVENT_TYPE_MAX_CHARACTERS) {
      errors.push({ field: 'event_type', message: `event_type must be at most ${EVENT_TYPE_MAX_CHARACTERS} characters (got ${length})` });
    }
  }
  const payload = Object.hasOwn(body, 'client_payload') ? body['client_payload'] : undefined;
  if (payload !== undefined && !isObject(payload)) {
    errors.push({ field: 'client_payload', message: 'client_payload must be an object when present' });
  }
  if (errors.length > 0 || typeof eventType !== 'string') return { ok: false, errors };
  return { ok: true, eventType, clientPayload: isObject(payload) ? payload : undefined };
}
