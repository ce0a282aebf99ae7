/**
 * Worker exit codes (RUNNER-PROTOCOL.md §6.3): 100 + TaskResult. Any other code is a crash,
 * which the listener reports as `failed`.
 */
export const TASK_RESULTS = ['succeeded', 'succeededWithIssues', 'failed', 'canceled', 'skipped', 'abandoned'] as const;
export type TaskResultName = (typeof TASK_RESULTS)[number];

const EXIT_BASE = 100;

export function exitCodeOf(result: TaskResultName): number {
  return EXIT_BASE + TASK_RESULTS.indexOf(result);
}

/** The job result a worker's exit code stands for; `undefined` for a crash. */
export function resultOfExitCode(code: number | null): TaskResultName | undefined {
  if (code === null) return undefined;
  return TASK_RESULTS[code - EXIT_BASE];
}
