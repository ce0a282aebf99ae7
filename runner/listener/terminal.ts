/**
 * The console, worded like the official runner's (actions/runner src/Runner.Common/Terminal.cs):
 * success lines start with `√ `, sections with `# `, errors go to stderr, and job lines carry a
 * UTC stamp in .NET's `u` format (`2026-08-21 10:11:12Z`).
 */
export interface Terminal {
  line(text?: string): void;
  success(text: string): void;
  section(title: string): void;
  error(text: string): void;
}

export function consoleTerminal(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Terminal {
  return {
    line: (text = '') => void out.write(`${text}\n`),
    success: (text) => void out.write(`√ ${text}\n`),
    section: (title) => void out.write(`\n# ${title}\n\n`),
    error: (text) => void err.write(`${text}\n`),
  };
}

/** `DateTime.UtcNow:u`: `yyyy-MM-dd HH:mm:ssZ`. */
export function stamp(at: Date = new Date()): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** A TaskResult as .NET prints it (`Succeeded`, `Canceled`, ...). */
export function resultName(result: string): string {
  return result.charAt(0).toUpperCase() + result.slice(1);
}
