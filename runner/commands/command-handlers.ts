/**
 * One handler per workflow command the runner registers, each turning a parsed command into
 * effects. A handler throws CommandError where the runner's extension throws: the interpreter
 * then reports `Unable to process command ...` and the reason, and fails the step.
 */
import { buildAnnotation } from './annotation-properties.js';
import type { AnnotationLevel, CommandEffect } from './command-effects.js';
import type { ParsedCommand } from './command-parser.js';
import {
  ADD_MATCHER_NO_FILE_MESSAGE,
  EMPTY_MASK_MESSAGE,
  REMOVE_MATCHER_BOTH_MESSAGE,
  REMOVE_MATCHER_NEITHER_MESSAGE,
  blockedSetEnvMessage,
  deprecatedCommandMessage,
  disabledCommandMessage,
  invalidEchoMessage,
  missingNameMessage,
  valueCannotBeNullMessage,
} from './messages.js';
import type { SecretMasker } from './secret-masker.js';

/**
 * Thrown by a handler where the runner's command extension throws. `effectsBefore` are effects the
 * runner had already applied when it threw (a deprecation warning before a missing name).
 */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    message: string,
    readonly effectsBefore: readonly CommandEffect[] = [],
  ) {
    super(message);
  }
}

export interface HandlerContext {
  readonly masker: SecretMasker;
  readonly allowUnsecureCommands: boolean;
  readonly deprecateStepOutputCommands: boolean;
  readonly enhancedAnnotations: boolean;
  readonly workspace: string | undefined;
  readonly platform: NodeJS.Platform;
  /** Echo state when the line arrived (add-mask echoes its own masked form). */
  readonly echo: boolean;
  setEcho(on: boolean): void;
}

export interface CommandHandler {
  /** The runner's OmitEcho: the line is never echoed (debug, add-mask, annotations). */
  readonly omitEcho: boolean;
  /** Returns the effects, and optionally the line's output when the handler decides it. */
  run(command: ParsedCommand, context: HandlerContext): { effects: CommandEffect[]; output?: string };
}

function requiredName(command: ParsedCommand, canonical: string, effectsBefore: readonly CommandEffect[] = []): string {
  const name = command.properties.get('name');
  if (name === undefined || name === '') throw new CommandError(missingNameMessage(canonical), effectsBefore);
  return name;
}

function deprecation(context: HandlerContext, canonical: string): CommandEffect[] {
  return context.deprecateStepOutputCommands ? [{ kind: 'warning-message', message: deprecatedCommandMessage(canonical) }] : [];
}

function requireUnsecure(context: HandlerContext, canonical: string): void {
  if (!context.allowUnsecureCommands) throw new CommandError(disabledCommandMessage(canonical));
}

function issueHandler(command: string, level: AnnotationLevel): CommandHandler {
  return {
    omitEcho: true,
    run(parsed, context) {
      const built = buildAnnotation(command, level, parsed.data, parsed.properties, context);
      const effects: CommandEffect[] = built.debug.map((message) => ({ kind: 'debug', message }));
      if (!context.enhancedAnnotations) {
        effects.push({
          kind: 'debug',
          message: "Enhanced Annotations not enabled on the server. The 'title', 'end_line', and 'end_column' fields are unsupported.",
        });
      }
      effects.push(built.annotation);
      return { effects };
    },
  };
}

export const COMMAND_HANDLERS: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  [
    'set-env',
    {
      omitEcho: false,
      run(parsed, context) {
        requireUnsecure(context, 'set-env');
        const name = requiredName(parsed, 'set-env');
        const blocked = blockedSetEnvMessage(name);
        if (blocked !== undefined) return { effects: [{ kind: 'error-message', message: blocked }] };
        return {
          effects: [
            { kind: 'set-env', name, value: parsed.data },
            { kind: 'debug', message: `${name}='${parsed.data}'` },
          ],
        };
      },
    },
  ],
  [
    'set-output',
    {
      omitEcho: false,
      run(parsed, context) {
        const effects = deprecation(context, 'set-output');
        const name = requiredName(parsed, 'set-output', effects);
        return { effects: [...effects, { kind: 'set-output', name, value: parsed.data }] };
      },
    },
  ],
  [
    'save-state',
    {
      omitEcho: false,
      run(parsed, context) {
        const effects = deprecation(context, 'save-state');
        const name = requiredName(parsed, 'save-state', effects);
        return {
          effects: [
            ...effects,
            { kind: 'save-state', name, value: parsed.data },
            { kind: 'debug', message: `Save intra-action state ${name} = ${parsed.data}` },
          ],
        };
      },
    },
  ],
  [
    'add-path',
    {
      omitEcho: false,
      run(parsed, context) {
        requireUnsecure(context, 'add-path');
        if (parsed.data === '') throw new CommandError(valueCannotBeNullMessage('path'));
        return { effects: [{ kind: 'add-path', path: parsed.data }] };
      },
    },
  ],
  [
    'add-mask',
    {
      omitEcho: true,
      run(parsed, context) {
        if (parsed.data.trim() === '') return { effects: [{ kind: 'warning-message', message: EMPTY_MASK_MESSAGE }] };
        context.masker.add(parsed.data);
        const effects: CommandEffect[] = [{ kind: 'add-mask', value: parsed.data }];
        return context.echo ? { effects, output: '::add-mask::***' } : { effects };
      },
    },
  ],
  [
    'add-matcher',
    {
      omitEcho: false,
      run(parsed) {
        if (parsed.data === '') return { effects: [{ kind: 'warning-message', message: ADD_MATCHER_NO_FILE_MESSAGE }] };
        return { effects: [{ kind: 'add-matcher', file: parsed.data }] };
      },
    },
  ],
  [
    'remove-matcher',
    {
      omitEcho: false,
      run(parsed) {
        const owner = parsed.properties.get('owner') ?? '';
        const file = parsed.data;
        if (owner !== '' && file !== '') return { effects: [{ kind: 'warning-message', message: REMOVE_MATCHER_BOTH_MESSAGE }] };
        if (owner === '' && file === '') return { effects: [{ kind: 'warning-message', message: REMOVE_MATCHER_NEITHER_MESSAGE }] };
        return { effects: [owner !== '' ? { kind: 'remove-matcher', owner } : { kind: 'remove-matcher-file', file }] };
      },
    },
  ],
  ['debug', { omitEcho: true, run: (parsed) => ({ effects: [{ kind: 'debug', message: parsed.data }] }) }],
  ['warning', issueHandler('warning', 'warning')],
  ['error', issueHandler('error', 'error')],
  ['notice', issueHandler('notice', 'notice')],
  ['group', { omitEcho: false, run: (parsed) => ({ effects: [{ kind: 'group', title: parsed.data }] }) }],
  ['endgroup', { omitEcho: false, run: () => ({ effects: [{ kind: 'endgroup' }] }) }],
  [
    'echo',
    {
      omitEcho: false,
      run(parsed, context) {
        if (parsed.data === '') throw new CommandError(valueCannotBeNullMessage('value'));
        const value = parsed.data.trim().toUpperCase();
        if (value !== 'ON' && value !== 'OFF') throw new CommandError(invalidEchoMessage(parsed.data));
        const on = value === 'ON';
        context.setEcho(on);
        return {
          effects: [
            { kind: 'echo', on },
            { kind: 'debug', message: `Setting echo command value to '${on ? 'on' : 'off'}'` },
          ],
        };
      },
    },
  ],
]);
