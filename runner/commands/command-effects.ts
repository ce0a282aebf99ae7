/**
 * What a processed output line asks the worker to do. The worker applies effects in order, after
 * writing the line's `output`:
 *
 * - `group` / `endgroup`: write `##[group]<title>` / `##[endgroup]` to the log.
 * - `annotation`, `warning-message`, `error-message`: record an issue on the step and write
 *   `##[error]` / `##[warning]` / `##[notice]` + message (the runner does both through AddIssue).
 * - `debug`: write `##[debug]<line>` for each line, only when step debug logging is on.
 * - `command-failed`: the step's result becomes failed even if the process exits 0 (the runner's
 *   CommandResult).
 * - `add-matcher` / `remove-matcher-file`: the worker roots the path at `github.workspace`,
 *   reads the file and calls ProblemMatchers (a read or validation error is reported with
 *   `unableToProcessCommandMessage(line)` + the reason, and fails the step, as the runner does).
 */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface AnnotationEffect {
  readonly kind: 'annotation';
  readonly level: AnnotationLevel;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly title?: string;
  /** Problem matchers only: the matched `code`, trimmed. */
  readonly code?: string;
}

export type CommandEffect =
  | { readonly kind: 'add-mask'; readonly value: string }
  | { readonly kind: 'set-output'; readonly name: string; readonly value: string }
  | { readonly kind: 'set-env'; readonly name: string; readonly value: string }
  | { readonly kind: 'add-path'; readonly path: string }
  | { readonly kind: 'save-state'; readonly name: string; readonly value: string }
  | AnnotationEffect
  | { readonly kind: 'debug'; readonly message: string }
  | { readonly kind: 'group'; readonly title: string }
  | { readonly kind: 'endgroup' }
  | { readonly kind: 'add-matcher'; readonly file: string }
  | { readonly kind: 'remove-matcher'; readonly owner: string }
  | { readonly kind: 'remove-matcher-file'; readonly file: string }
  | { readonly kind: 'echo'; readonly on: boolean }
  | { readonly kind: 'warning-message'; readonly message: string }
  | { readonly kind: 'error-message'; readonly message: string }
  | { readonly kind: 'command-failed'; readonly command: string };

export type CommandEffectKind = CommandEffect['kind'];

export interface ProcessedLine {
  /** What the log shows for the line itself (before any effect's own lines); undefined hides it. */
  readonly output: string | undefined;
  readonly effects: readonly CommandEffect[];
  /**
   * True when the runner took the line as a command. Problem matchers run only on lines that are
   * not (on `output`, which is then the line itself).
   */
  readonly handled: boolean;
}
