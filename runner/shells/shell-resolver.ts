/**
 * Which program runs a `run` step, with which arguments, as the runner's ScriptHandler decides:
 * the step's `shell`, else the job's `defaults.run.shell`, else the platform default (`bash -e
 * {0}` when bash is on PATH else `sh -e {0}` on Linux and macOS; `pwsh`, else `powershell`, on
 * Windows). A built-in name alone takes its built-in arguments; anything else is `COMMAND
 * [ARGS]` split at the first space, where ARGS must contain `{0}` (the script path).
 */
import { ArgumentFormatError, formatArguments, splitArguments } from './dotnet-args.js';

/** The runner's built-in argument templates (names compared case-insensitively). */
export const BUILT_IN_ARGUMENTS: Readonly<Record<string, string>> = {
  cmd: '/D /E:ON /V:OFF /S /C "CALL "{0}""',
  pwsh: `-command ". '{0}'"`,
  powershell: `-command ". '{0}'"`,
  bash: '--noprofile --norc -e -o pipefail {0}',
  sh: '-e {0}',
  python: '{0}',
};

export const SCRIPT_EXTENSIONS: Readonly<Record<string, string>> = {
  cmd: '.cmd',
  pwsh: '.ps1',
  powershell: '.ps1',
  bash: '.sh',
  sh: '.sh',
  python: '.py',
};

export const INVALID_SHELL_MESSAGE =
  "Invalid shell option. Shell must be a valid built-in (bash, sh, cmd, powershell, pwsh) or a format string containing '{0}'";

export type ShellErrorCode = 'shell-not-found' | 'invalid-shell';

export class ShellError extends Error {
  override readonly name = 'ShellError';
  constructor(
    readonly code: ShellErrorCode,
    message: string,
    /** The program that was looked for, for `shell-not-found`. */
    readonly command?: string,
  ) {
    super(message);
  }
}

export interface ResolveShellInput {
  /** The step's `shell`. */
  readonly shell: string | undefined;
  /** The job's `defaults.run.shell` (pass undefined inside a composite action: the runner ignores it there). */
  readonly defaultShell: string | undefined;
  readonly platform: NodeJS.Platform;
  /** Finds a program on the step's PATH (prepended paths first); undefined when absent. */
  readonly which: (name: string) => string | undefined;
  /** The step runs in the job container: the program is not required on the host and runs by name. */
  readonly inContainer?: boolean;
}

export interface ResolvedShell {
  /** The shell's name as the runner keys it: `bash`, `sh`, `pwsh`, ... or a custom command's first word. */
  readonly name: string;
  /** The program to start: its path on the host, or its name in a container. */
  readonly command: string;
  /** The argument template split as the runner splits it; `{0}` stands for the script. */
  readonly args: string[];
  /** The argument template as written (what the log's `shell:` line shows). */
  readonly argFormat: string;
  /** `.sh`, `.ps1`, `.py`, `.cmd`, or '' for a custom command. */
  readonly scriptExtension: string;
  readonly platform: NodeJS.Platform;
  /** The line the runner prints in the step's header, e.g. `shell: /usr/bin/bash -e {0}`. */
  readonly display: string;
  /** The script as the runner writes it: PowerShell and cmd preludes, CRLF on Windows. */
  prepareScript(content: string): string;
}

function notFound(command: string): ShellError {
  return new ShellError('shell-not-found', `${command}: command not found`, command);
}

function builtIn<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function scriptPreparer(name: string, platform: NodeJS.Platform): (content: string) => string {
  const windows = platform === 'win32';
  const newline = windows ? '\r\n' : '\n';
  return (content) => {
    let script = content;
    if (name === 'cmd') {
      // @echo off rather than cmd's /Q, so a script can still turn echo on.
      script = `@echo off${newline}${script}`;
    } else if (name === 'pwsh' || name === 'powershell') {
      script = `$ErrorActionPreference = 'stop'${newline}${script}${newline}if ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }`;
    }
    return windows ? script.replace(/\r\n/g, '\n').replace(/\n/g, '\r\n') : script;
  };
}

export function resolveShell(input: ResolveShellInput): ResolvedShell {
  const { platform, which } = input;
  const inContainer = input.inContainer ?? false;
  const requested = input.shell ? input.shell : input.defaultShell ? input.defaultShell : undefined;
  let name: string;
  let path: string | undefined;
  let argFormat: string;
  if (requested === undefined) {
    if (platform === 'win32') {
      name = 'pwsh';
      path = which('pwsh');
      if (path === undefined) {
        name = 'powershell';
        path = which('powershell');
        if (path === undefined) throw notFound('powershell');
      }
    } else {
      // Named `sh` whatever runs it: bash when present gets sh's arguments.
      name = 'sh';
      path = which('bash') ?? which('sh');
      if (path === undefined) throw notFound('sh');
    }
    argFormat = BUILT_IN_ARGUMENTS[name] ?? '';
  } else {
    const space = requested.indexOf(' ');
    name = space < 0 ? requested : requested.slice(0, space);
    if (name === '') throw new ShellError('invalid-shell', INVALID_SHELL_MESSAGE);
    path = which(name);
    if (path === undefined && !inContainer) throw notFound(name);
    argFormat = space < 0 ? '' : requested.slice(space + 1).trimStart();
    if (argFormat === '') argFormat = builtIn(BUILT_IN_ARGUMENTS, name) ?? '';
  }
  if (!argFormat.includes('{0}')) throw new ShellError('invalid-shell', INVALID_SHELL_MESSAGE);
  try {
    // The runner formats the template before it writes the script: a bad one fails the step first.
    formatArguments(argFormat, '');
  } catch (error) {
    if (error instanceof ArgumentFormatError) throw new ShellError('invalid-shell', error.message);
    throw error;
  }
  const command = inContainer || path === undefined ? name : path;
  return {
    name,
    command,
    args: splitArguments(argFormat),
    argFormat,
    scriptExtension: builtIn(SCRIPT_EXTENSIONS, name) ?? '',
    platform,
    display: `shell: ${command} ${argFormat}`,
    prepareScript: scriptPreparer(name, platform),
  };
}
