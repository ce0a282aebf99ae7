import { MissingTokenError, NotImplementedError, PromptCancelledError, ServerAnswerError, ServerUnreachableError } from '../../../core/kernel/cli/index.js';

/**
 * `svc run` exit codes (also in the command's description and the plugin README):
 * 0 the run succeeded (or all its jobs were skipped); 1 the run failed, was cancelled or timed
 * out; 2 nothing ran: a usage or input error (a flag, the workflow file, the payload, a git
 * problem, or the server refusing the submission as invalid); 3 the server is unreachable,
 * refused the credentials, failed (5xx), or was lost while following; 130 interrupted with
 * Ctrl-C (the run was asked to cancel, or a `--secret` prompt was left with Ctrl-C or Ctrl-D).
 */
export const EXIT = { success: 0, runFailed: 1, usage: 2, server: 3, interrupted: 130 } as const;

export const EXIT_CODES_HELP = 'exit 0 success, 1 run failed/cancelled, 2 usage or input error, 3 server unreachable/refused, 130 Ctrl-C';

/** The exit code for a run that ended with this conclusion. */
export function exitCodeForConclusion(conclusion: string): number {
  return conclusion === 'success' || conclusion === 'skipped' ? EXIT.success : EXIT.runFailed;
}

/** The exit code for an error that stopped `svc run`. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof ServerUnreachableError || error instanceof MissingTokenError) return EXIT.server;
  if (error instanceof PromptCancelledError) return EXIT.interrupted;
  if (error instanceof ServerAnswerError) return error.status === 401 || error.status === 403 || error.status >= 500 ? EXIT.server : EXIT.usage;
  // Everything else stopped `svc run` before anything ran: flags, files, git, the payload.
  return EXIT.usage;
}

/** The one line `svc run:` prints for an error. */
export function errorMessage(error: unknown): string {
  if (error instanceof ServerUnreachableError && error.code === 'server_unreachable' && /^cannot reach/.test(error.message)) {
    return `no svc server at ${error.baseUrl}; start one with \`svc serve\` (or set SVC_URL)`;
  }
  if (error instanceof NotImplementedError) return `not implemented yet: ${String(error.details?.['feature'] ?? error.message)}`;
  return (error as Error).message;
}
