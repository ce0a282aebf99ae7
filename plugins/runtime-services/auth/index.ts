// The job runtime token (ACTIONS_RUNTIME_TOKEN) on the runtime routes, through the runtime-jobs port.
export { bearer, createRuntimeAuth, type RuntimeAuth } from './runtime-auth.js';
