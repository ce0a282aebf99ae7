import type { CommandContext } from '../../../core/kernel/cli/index.js';

/** Runs a command body; any error becomes one line on stderr (`svc <name>: ...`) and exit code 1. */
export async function runCommand(name: string, context: CommandContext, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    context.stderr.write(`svc ${name}: ${(error as Error).message}\n`);
    return 1;
  }
}

export function parseRunId(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new Error(`'${raw ?? ''}' is not a run id; a run id is a positive whole number (e.g. svc status 42)`);
  }
  return Number(raw);
}
