// runner/shells: shells and their exact command lines, script files, hashFiles.
export { BUILT_IN_ARGUMENTS, INVALID_SHELL_MESSAGE, SCRIPT_EXTENSIONS, ShellError, resolveShell } from './shell-resolver.js';
export type { ResolveShellInput, ResolvedShell, ShellErrorCode } from './shell-resolver.js';
export { commandLine, writeScriptFile } from './script-file.js';
export type { ShellCommandLine } from './script-file.js';
export { formatArguments, splitArguments } from './dotnet-args.js';
export { FOLLOW_SYMBOLIC_LINKS_OPTION, HashFilesError, hashFilesSync } from './hash-files.js';
