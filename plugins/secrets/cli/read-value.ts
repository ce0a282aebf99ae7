import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * A value not given on the command line (so it stays out of shell history): on a terminal, a
 * prompt that does not echo what is typed; else all of stdin, without one final newline.
 */
export async function readValue(prompt: string, stderr: NodeJS.WritableStream): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    stderr.write(prompt);
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const lines = createInterface({ input: stdin, output: silent, terminal: true });
    try {
      return await new Promise<string>((resolve) => lines.once('line', resolve));
    } finally {
      lines.close();
      stderr.write('\n');
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}
