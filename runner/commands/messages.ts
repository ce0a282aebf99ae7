/**
 * The official runner's user-facing texts for workflow and file commands, word for word: users
 * search for them, and the conformance suites compare logs against the official runner's.
 */

export const UNSECURE_COMMANDS_VARIABLE = 'ACTIONS_ALLOW_UNSECURE_COMMANDS';
export const UNSECURE_STOP_TOKENS_VARIABLE = 'ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS';

/** `set-output` / `save-state` while the server deprecates them (GitHub does). */
export function deprecatedCommandMessage(command: string): string {
  return `The \`${command}\` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/`;
}

/** `set-env` / `add-path` without ACTIONS_ALLOW_UNSECURE_COMMANDS. */
export function disabledCommandMessage(command: string): string {
  return `The \`${command}\` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the \`${UNSECURE_COMMANDS_VARIABLE}\` environment variable to \`true\`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/`;
}

export const INVALID_STOP_TOKEN_MESSAGE = `You cannot use a endToken that is an empty string, the string 'pause-logging', or another workflow command. For more information see: https://docs.github.com/actions/learn-github-actions/workflow-commands-for-github-actions#example-stopping-and-starting-workflow-commands or opt into insecure command execution by setting the \`${UNSECURE_STOP_TOKENS_VARIABLE}\` environment variable to \`true\`.`;

/** The first of the two errors the runner logs when a command throws (the second is the reason). */
export function unableToProcessCommandMessage(commandOrLine: string): string {
  return `Unable to process command '${commandOrLine}' successfully.`;
}

/** The first of the two errors the runner logs when a file command fails (`env`, `output`, ...). */
export function unableToProcessFileCommandMessage(fileLabel: string): string {
  return `Unable to process file command '${fileLabel}' successfully.`;
}

export function missingNameMessage(command: string): string {
  return `Required field 'name' is missing in ##[${command}] command.`;
}

/** .NET's ArgumentNullException text, which the runner shows for an empty `add-path` or `echo`. */
export function valueCannotBeNullMessage(parameter: string): string {
  return `Value cannot be null. (Parameter '${parameter}')`;
}

export function invalidEchoMessage(value: string): string {
  return `Invalid echo command value. Possible values can be: 'on', 'off'. Current value is: '${value}'.`;
}

export const EMPTY_MASK_MESSAGE = "Can't add secret mask for empty string in ##[add-mask] command.";
export const ADD_MATCHER_NO_FILE_MESSAGE = 'File path must be specified.';
export const REMOVE_MATCHER_BOTH_MESSAGE =
  'Either specify an owner name or a file path in ##[remove-matcher] command. Both values cannot be set.';
export const REMOVE_MATCHER_NEITHER_MESSAGE =
  'Either an owner name or a file path must be specified in ##[remove-matcher] command.';

/** Variables a step may not set (`set-env`, `GITHUB_ENV`). */
export const ENV_BLOCKLIST: readonly string[] = ['NODE_OPTIONS'];

export function blockedSetEnvMessage(name: string): string | undefined {
  const blocked = ENV_BLOCKLIST.find((b) => b.toLowerCase() === name.toLowerCase());
  return blocked === undefined ? undefined : `Can't update ${blocked} environment variable using ::set-env:: command.`;
}

/** For a `GITHUB_ENV` pair: the error the runner logs (and the pair is skipped), or undefined. */
export function blockedEnvFileMessage(name: string): string | undefined {
  const blocked = ENV_BLOCKLIST.find((b) => b.toLowerCase() === name.toLowerCase());
  return blocked === undefined ? undefined : `Can't store ${blocked} output parameter using '$GITHUB_ENV' command.`;
}

export const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024;

export function summaryTooLargeMessage(sizeBytes: number): string {
  return `$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of ${STEP_SUMMARY_LIMIT_BYTES / 1024}k, got ${Math.floor(sizeBytes / 1024)}k. For more information see: https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary`;
}
