// runner/listener: `configure`, `remove`, `run` (legacy and broker flows, --once, --jitconfig),
// one job at a time in a worker process, lock renewal, cancellation and graceful stop.
export { configureRunner } from './configure.js';
export { ConfigureError } from './agent-registration.js';
export type { ConfigureOptions } from './configure.js';
export { removeRunner } from './remove.js';
export type { RemoveOptions, RemoveResult } from './remove.js';
export { runListener } from './run-listener.js';
export type { RunOptions, StopSignals } from './run-listener.js';
export { NotConfiguredError, loadRunnerConfig } from './runner-config.js';
export { ListenerExit, ListenerExitCode } from './exit-codes.js';
export { consoleTerminal, resultName, stamp } from './terminal.js';
export type { Terminal } from './terminal.js';
export { DEFAULT_TIMINGS, timingsFromEnv } from './timings.js';
export type { ListenerTimings } from './timings.js';
export { WORKER_COMMAND_VARIABLE, startWorker, workerCommand } from './worker-process.js';
export type { WorkerCommand, WorkerExit, WorkerProcess } from './worker-process.js';
export { JobRun } from './job-run.js';
export type { JobRunDeps } from './job-run.js';
export type { JobLock } from './lock-renewal.js';
export type { JobReporter, JobServices } from './job-reporting.js';
export { parseJobMessage } from './job-message.js';
export type { JobMessage } from './job-message.js';
