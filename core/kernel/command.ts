import type { Writable } from 'node:stream';

/**
 * A CLI subcommand a plugin contributes to `svc`. Commands run in the CLI process, not in the
 * server, so they are declared statically on the plugin and never depend on its services; they
 * talk to a running server through its HTTP API.
 */
export interface CommandOption {
  /** Commander-style flags, e.g. `--json` or `--limit <n>`. */
  readonly flags: string;
  readonly description: string;
  readonly defaultValue?: string | boolean;
}

export interface CommandArgument {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
}

export interface CommandContext {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface CommandDefinition {
  /** Space-separated path, e.g. `webhooks list`. */
  readonly name: string;
  readonly description: string;
  readonly arguments?: readonly CommandArgument[];
  readonly options?: readonly CommandOption[];
  /** Returns the process exit code (0 when omitted). */
  run(args: readonly string[], options: Readonly<Record<string, unknown>>, context: CommandContext): Promise<number | void>;
}
