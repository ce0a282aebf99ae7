/**
 * The step's script file and the process to start for it, as the runner makes them: the file is
 * `<RUNNER_TEMP>/<uuid><extension>`, UTF-8 without a byte-order mark (a BOM breaks some shells);
 * the template gets the path with `"` escaped as `\"`, and the resulting string is split into argv
 * by .NET's rules on Linux and macOS or handed to Windows as the command line verbatim.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArgumentFormatError, formatArguments, splitArguments } from './dotnet-args.js';
import { ShellError, type ResolvedShell } from './shell-resolver.js';

export async function writeScriptFile(tempDir: string, content: string, shell: ResolvedShell): Promise<string> {
  const path = join(tempDir, `${randomUUID()}${shell.scriptExtension}`);
  await writeFile(path, shell.prepareScript(content), { encoding: 'utf8', flag: 'wx' });
  return path;
}

export interface ShellCommandLine {
  readonly file: string;
  readonly args: string[];
  /** The argument string the runner builds (its debug line is `<file> <argumentString>`). */
  readonly argumentString: string;
  /**
   * Windows: pass `args` verbatim (`windowsVerbatimArguments`) with this quoted `argv0`, so the
   * child gets exactly the runner's command line.
   */
  readonly windowsVerbatimArguments: boolean;
  readonly argv0?: string;
}

/** `scriptPath` is the path as the step sees it (inside the container for a container step). */
export function commandLine(shell: ResolvedShell, scriptPath: string): ShellCommandLine {
  let argumentString: string;
  try {
    argumentString = formatArguments(shell.argFormat, scriptPath.replaceAll('"', '\\"'));
  } catch (error) {
    if (error instanceof ArgumentFormatError) throw new ShellError('invalid-shell', error.message);
    throw error;
  }
  if (shell.platform === 'win32') {
    return { file: shell.command, args: [argumentString], argumentString, windowsVerbatimArguments: true, argv0: `"${shell.command}"` };
  }
  return { file: shell.command, args: splitArguments(argumentString), argumentString, windowsVerbatimArguments: false };
}
