// The `process` isolation backend: guests as plain child processes (no isolation; development).
export { createProcessBackend, PROCESS_BACKEND_WARNING } from './process-backend.js';
