/**
 * Stored job messages hold no credential and no secret value: each stands as a slot (a marker
 * string) wherever the message carries it (a variable's value, the endpoint token, a mask hint),
 * and the slots are filled when the message is handed out (job-token-slot.ts, secret-slots.ts).
 */
import type { JsonObject, JsonValue } from '../../../core/protocol/index.js';
import { escapeRegex } from './mask-hints.js';

/** The message with every slot of `fills` replaced (a mask hint gets the value as a regex matching only itself; an empty one is dropped). */
export function fillSlots(message: JsonObject, fills: ReadonlyMap<string, string>): JsonObject {
  return fill(message, fills) as JsonObject;
}

function fill(value: JsonValue, fills: ReadonlyMap<string, string>): JsonValue {
  if (typeof value === 'string') return fills.get(value) ?? value;
  if (typeof value !== 'object' || value === null) return value;
  if (isList(value)) return value.filter((item) => !emptyHint(item, fills)).map((item) => fill(item, fills));
  const hinted = value['type'] === 'regex' && typeof value['value'] === 'string' ? fills.get(value['value']) : undefined;
  if (hinted !== undefined) return { ...value, value: escapeRegex(hinted) };
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, fill(member, fills)]));
}

/** A mask hint for a slot whose value is empty: an empty pattern would mask everything. */
function emptyHint(item: JsonValue, fills: ReadonlyMap<string, string>): boolean {
  if (typeof item !== 'object' || item === null || isList(item) || item['type'] !== 'regex' || typeof item['value'] !== 'string') return false;
  return fills.get(item['value']) === '';
}

function isList(value: JsonObject | readonly JsonValue[]): value is readonly JsonValue[] {
  return Array.isArray(value);
}
