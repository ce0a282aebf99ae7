/** Listener exit codes (RUNNER-PROTOCOL.md §2.9; actions/runner Constants.Runner.ReturnCode). */
export const ListenerExitCode = {
  Success: 0,
  TerminatedError: 1,
  RetryableError: 2,
  RunnerUpdating: 3,
  RunOnceRunnerUpdating: 4,
  SessionConflict: 5,
  RunnerConfigurationRefreshed: 6,
  /** Only with ACTIONS_RUNNER_RETURN_VERSION_DEPRECATED_EXIT_CODE=true; 1 otherwise. */
  RunnerVersionDeprecated: 7,
} as const;

/** Ends the listener with an exit code; its message (if any) was already printed. */
export class ListenerExit extends Error {
  override readonly name = 'ListenerExit';
  constructor(
    readonly code: number,
    message = `listener exit ${code}`,
  ) {
    super(message);
  }
}
