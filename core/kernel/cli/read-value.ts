import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { InputError } from '../errors.js';

/** Ctrl-C or end of input at a hidden prompt: no value was given. */
export class PromptCancelledError extends InputError {
  constructor(prompt: string) {
    super(`the prompt "${prompt}" was interrupted; nothing was sent`, { code: 'prompt_cancelled' });
  }
}

/**
 * A value not given on the command line (so it stays out of shell history): on a terminal, a
 * prompt that does not echo what is typed; else all of stdin, without one final newline.
 */
export async function readValue(prompt: string, stderr: NodeJS.WritableStream): Promise<string> {
  if (process.stdin.isTTY) return promptHidden(prompt, stderr);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * One line typed on the terminal (stdin must be one) without echoing it. Ctrl-C or Ctrl-D reject
 * with a PromptCancelledError naming the prompt, rather than leaving the prompt waiting.
 */
export async function promptHidden(prompt: string, stderr: NodeJS.WritableStream): Promise<string> {
  stderr.write(prompt);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      const cancelled = () => reject(new PromptCancelledError(prompt.replace(/:\s*$/, '')));
      lines.once('line', resolve);
      // In raw mode Ctrl-C reaches readline as a key, not as a signal to the process.
      lines.once('SIGINT', cancelled);
      lines.once('close', cancelled);
    });
  } finally {
    lines.close();
    stderr.write('\n');
  }
}
