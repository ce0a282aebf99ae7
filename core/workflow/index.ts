/**
 * What a workflow means, as a pure library (no I/O: files arrive through the WorkflowLoader
 * port). Used by the server, `svc plan` / `svc run` and the runner.
 */
export * from './expressions/index.js';
export * from './parser/index.js';
export * from './triggers/index.js';
export * from './matrix/index.js';
export * from './templates/index.js';
export * from './actions/index.js';
export * from './jobs/index.js';
export * from './wire/index.js';
