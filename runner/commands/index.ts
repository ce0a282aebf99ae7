// runner/commands: workflow commands, file commands, problem matchers, the secret masker.
export { CommandInterpreter } from './command-interpreter.js';
export type { CommandInterpreterOptions } from './command-interpreter.js';
export type { AnnotationEffect, AnnotationLevel, CommandEffect, CommandEffectKind, ProcessedLine } from './command-effects.js';
export { escapeData, escapeProperty, parseAnyCommand, unescapeData, unescapeProperty } from './command-parser.js';
export type { ParsedCommand } from './command-parser.js';
export { FileCommandError, parseKeyValueFile, parsePathFile } from './file-commands.js';
export type { FileCommandOptions, KeyValuePair } from './file-commands.js';
export {
  ENV_BLOCKLIST,
  STEP_SUMMARY_LIMIT_BYTES,
  UNSECURE_COMMANDS_VARIABLE,
  UNSECURE_STOP_TOKENS_VARIABLE,
  blockedEnvFileMessage,
  unableToProcessCommandMessage,
  unableToProcessFileCommandMessage,
} from './messages.js';
export { ProblemMatcherError } from './problem-matcher-config.js';
export { ProblemMatcherStream, ProblemMatchers } from './problem-matchers.js';
export type { ProblemMatchersOptions } from './problem-matchers.js';
export { MASK, mergeRanges, replaceRanges, SecretMasker } from './secret-masker.js';
export { StepSummaryTooLargeError, readStepSummary } from './step-summary.js';
