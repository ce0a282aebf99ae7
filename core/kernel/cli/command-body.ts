import type { CommandContext } from '../command.js';

/**
 * Runs a command's body the way every `svc` command that talks to the server ends: any error is
 * one line on stderr (`svc <name>: <message>`) and exit code 1.
 */
export async function runCommand(name: string, context: CommandContext, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    context.stderr.write(`svc ${name}: ${(error as Error).message}\n`);
    return 1;
  }
}

/** An id argument: a positive whole number the store can hold; the message names what it is, with an example. */
export function parsePositiveId(raw: string | undefined, what: string, example: string): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new Error(`'${raw ?? ''}' is not a ${what}; a ${what} is a positive whole number (e.g. ${example})`);
  }
  return Number(raw);
}
