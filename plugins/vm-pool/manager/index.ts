// The pool manager: warm guests, replacement, back-off, stop; and what a guest runs.
export { backoffDelay, DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';
export { recordedGuests, writeGuestRecord, type GuestRecord } from './guest-records.js';
export { guestEnvironment, prepareGuestRoot, removeGuestRoot } from './guest-root.js';
export { createPoolManager, type PoolManager, type PoolManagerOptions } from './pool-manager.js';
export { countPhase, CRASH_LOOP_FAILURES, type GuestPhase, type GuestStatus, type PoolStatus } from './pool-status.js';
export { resolveRunnerCommand, type RunnerCommand } from './runner-command.js';
export { waitUntilReachable } from './server-reachable.js';
