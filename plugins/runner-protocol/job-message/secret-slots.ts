/**
 * A job's secrets in its stored message (message-slots.ts): the message names each secret with a
 * slot, and carries the values sealed under the secrets key in one member that delivery opens,
 * fills in and removes. The database never holds a job's secret in plain text, and a message
 * taken from it without the secrets key reveals nothing.
 */
import type { JsonObject } from '../../../core/protocol/index.js';
import { fillSlots } from './message-slots.js';

/** The member of a stored message holding its sealed secret values (never sent to a runner). */
export const SEALED_SECRETS_MEMBER = 'svcSealedSecrets';

export interface SlottedSecrets {
  /** Name → slot: what the message is built with. */
  readonly byName: Readonly<Record<string, string>>;
  /** Slot → value: what delivery fills in. */
  readonly values: Readonly<Record<string, string>>;
}

/** One slot per secret (no regex metacharacters: a slot's mask hint is itself). */
export function secretSlots(secrets: Readonly<Record<string, string>>): SlottedSecrets {
  const byName: Record<string, string> = {};
  const values: Record<string, string> = {};
  Object.entries(secrets).forEach(([name, value], index) => {
    const slot = `svc-secret-${index + 1}-filled-at-delivery`;
    byName[name] = slot;
    values[slot] = value;
  });
  return { byName, values };
}

/** The sealing label of a job's secrets: bound to the job and its attempt. */
export function jobSecretsLabel(jobId: number, attempt: number): string {
  return `job-secrets:${jobId}:${attempt}`;
}

/** The stored message without its sealed member, and that member (undefined when it has no secrets). */
export function takeSealedSecrets(message: JsonObject): { readonly message: JsonObject; readonly sealed: string | undefined } {
  const { [SEALED_SECRETS_MEMBER]: sealed, ...rest } = message;
  return { message: rest, sealed: typeof sealed === 'string' ? sealed : undefined };
}

/** The message with each secret's value where its slot was. */
export function withSecretValues(message: JsonObject, values: Readonly<Record<string, string>>): JsonObject {
  return fillSlots(message, new Map(Object.entries(values)));
}
