/**
 * Which activity types trigger a workflow when `on.<event>.types` is omitted ("Events that
 * trigger workflows"): every type, except for `pull_request` and `pull_request_target`, which
 * run only for `opened`, `synchronize` and `reopened`.
 */
const DEFAULT_TYPES: Readonly<Record<string, readonly string[]>> = {
  pull_request: ['opened', 'synchronize', 'reopened'],
  pull_request_target: ['opened', 'synchronize', 'reopened'],
};

/** The activity types an event runs for by default; `undefined` means all of them. */
export function defaultActivityTypes(event: string): readonly string[] | undefined {
  return Object.hasOwn(DEFAULT_TYPES, event) ? DEFAULT_TYPES[event] : undefined;
}

/**
 * Checks the event's activity type against `types` (or the default). Returns a skip reason, or
 * undefined when the type is accepted.
 */
export function activityTypeMismatch(
  event: string,
  types: readonly string[] | undefined,
  action: string | undefined,
): string | undefined {
  const accepted = types ?? defaultActivityTypes(event);
  if (accepted === undefined) return undefined;
  const source = types ? `on.${event}.types` : `the default types of ${event}`;
  if (action === undefined) {
    return `the event carries no activity type, and ${source} lists [${accepted.join(', ')}]`;
  }
  if (accepted.includes(action)) return undefined;
  return `activity type '${action}' is not in ${source} [${accepted.join(', ')}]`;
}
