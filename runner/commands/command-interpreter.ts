/**
 * Turns each line a step prints into what the log shows and what the worker must do, as the
 * runner's ActionCommandManager and OutputManager do: commands are recognised only on lines that
 * contain `::` or `##[`, only for registered names (anything else is ordinary output), with
 * `stop-commands` pausing all processing until its token comes back and `echo` deciding whether
 * command lines are shown.
 *
 * The runner keeps the stop-commands state for the whole job and the echo state per step: create
 * one interpreter per job and set `echo` at the start of each step.
 */
import type { CommandEffect, ProcessedLine } from './command-effects.js';
import { CommandError, COMMAND_HANDLERS, type HandlerContext } from './command-handlers.js';
import { parseAnyCommand } from './command-parser.js';
import { INVALID_STOP_TOKEN_MESSAGE, unableToProcessCommandMessage } from './messages.js';
import type { SecretMasker } from './secret-masker.js';

export interface CommandInterpreterOptions {
  readonly masker: SecretMasker;
  /** ACTIONS_ALLOW_UNSECURE_COMMANDS is true (runner environment or the step's `env` context). */
  readonly allowUnsecureCommands?: boolean;
  /** ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS is true. */
  readonly allowUnsecureStopCommandTokens?: boolean;
  /** Initial echo state; the runner starts with ACTIONS_STEP_DEBUG. Default false. */
  readonly echo?: boolean;
  /** The server's DistributedTask.DeprecateStepOutputCommands (GitHub sets it). Default true. */
  readonly deprecateStepOutputCommands?: boolean;
  /** The server's DistributedTask.EnhancedAnnotations; without it `::notice` is ordinary output. Default true. */
  readonly enhancedAnnotations?: boolean;
  /** `github.workspace`: annotation files inside it are made relative, with `/`. */
  readonly workspace?: string;
  readonly platform?: NodeJS.Platform;
}

const STOP_COMMAND = 'stop-commands';

/** What the runner writes instead of its own markers when a step prints them. */
function neutralizeMarkers(line: string): string {
  if (!line.includes('##[start-action') && !line.includes('##[end-action')) return line;
  return line.replaceAll('##[start-action', '##[\\start-action').replaceAll('##[end-action', '##[\\end-action');
}

export class CommandInterpreter {
  private readonly options: CommandInterpreterOptions;
  /** Lower-cased names that parse as commands: the handlers, stop-commands and a pending stop token. */
  private readonly registered = new Set<string>([STOP_COMMAND, ...COMMAND_HANDLERS.keys()]);
  private echoOn: boolean;
  private stopToken: string | undefined;

  constructor(options: CommandInterpreterOptions) {
    this.options = options;
    this.echoOn = options.echo ?? false;
  }

  get echo(): boolean {
    return this.echoOn;
  }

  set echo(on: boolean) {
    this.echoOn = on;
  }

  /** True while `::stop-commands::` is in force. */
  get stopped(): boolean {
    return this.stopToken !== undefined;
  }

  process(line: string): ProcessedLine {
    const effects: CommandEffect[] = [];
    if (line.includes('##[') || line.includes('::')) {
      const handled = this.tryCommand(line, effects);
      if (handled) return handled;
    }
    return { output: neutralizeMarkers(line), effects, handled: false };
  }

  private tryCommand(line: string, effects: CommandEffect[]): ProcessedLine | undefined {
    const command = parseAnyCommand(line, (name) => this.registered.has(name.toLowerCase()));
    if (!command) return undefined;
    const name = command.name.toLowerCase();
    if (name === 'notice' && this.options.enhancedAnnotations === false) {
      effects.push({ kind: 'debug', message: "Enhanced Annotations not enabled on the server: 'notice' command will not be processed." });
      return undefined;
    }

    if (this.stopToken !== undefined) {
      if (this.stopToken !== '' && name === this.stopToken.toLowerCase()) {
        this.registered.delete(this.stopToken.toLowerCase());
        this.stopToken = undefined;
        return { output: line, effects: [{ kind: 'debug', message: 'Resume processing commands' }], handled: true };
      }
      effects.push({ kind: 'debug', message: `Process commands has been stopped and waiting for '##[${this.stopToken}]' to resume.` });
      return undefined;
    }

    if (name === STOP_COMMAND) return this.stop(line, command.data);

    // Every other registered name has a handler (a stop token is registered only while stopped).
    const handler = COMMAND_HANDLERS.get(name);
    if (!handler) return undefined;
    const output = this.echoOn && !handler.omitEcho ? line : undefined;
    const context: HandlerContext = {
      masker: this.options.masker,
      allowUnsecureCommands: this.options.allowUnsecureCommands ?? false,
      deprecateStepOutputCommands: this.options.deprecateStepOutputCommands ?? true,
      enhancedAnnotations: this.options.enhancedAnnotations ?? true,
      workspace: this.options.workspace,
      platform: this.options.platform ?? process.platform,
      echo: this.echoOn,
      setEcho: (on) => {
        this.echoOn = on;
      },
    };
    try {
      const result = handler.run(command, context);
      return { output: result.output ?? output, effects: result.effects, handled: true };
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      return {
        output,
        effects: [
          ...error.effectsBefore,
          { kind: 'error-message', message: unableToProcessCommandMessage(handler.omitEcho ? name : line) },
          { kind: 'error-message', message: error.message },
          { kind: 'command-failed', command: name },
        ],
        handled: true,
      };
    }
  }

  private stop(line: string, token: string): ProcessedLine {
    const invalid = token === '' || this.registered.has(token.toLowerCase()) || token.toLowerCase() === 'pause-logging';
    if (invalid && !this.options.allowUnsecureStopCommandTokens) {
      // The runner throws out of its command manager here; the step fails with this error.
      return {
        output: undefined,
        effects: [
          { kind: 'error-message', message: INVALID_STOP_TOKEN_MESSAGE },
          { kind: 'command-failed', command: STOP_COMMAND },
        ],
        handled: true,
      };
    }
    this.stopToken = token;
    this.registered.add(token.toLowerCase());
    if (token.length > 6) this.options.masker.add(token);
    return {
      output: line,
      effects: [{ kind: 'debug', message: 'Paused processing commands until the token you called ::stopCommands:: with is received' }],
      handled: true,
    };
  }
}
