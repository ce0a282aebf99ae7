/**
 * Limits of run-supplied secrets and variables (`svc run --secret/--var`, the submission's
 * `secrets`/`vars`): one place for the CLI, which checks before it sends, and the server's schema.
 */

/** GitHub's limit on one secret or variable value (the secret store's too). */
export const MAX_SUPPLIED_VALUE_BYTES = 48 * 1024;

/** How many secrets, and how many variables, one run may bring. */
export const MAX_SUPPLIED_VALUES = 100;
