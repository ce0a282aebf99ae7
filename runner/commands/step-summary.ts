/**
 * `GITHUB_STEP_SUMMARY`: read after the step as the runner reads it before attaching it. A
 * missing or empty file gives nothing; over 1 MiB is refused with the runner's message (the
 * runner logs it as an error annotation and does not fail the step). The runner rewrites the file
 * line by line, masking each line and ending each with a newline; with a masker given, so does
 * this.
 */
import { readFile, stat } from 'node:fs/promises';
import { FileCommandError } from './file-commands.js';
import { STEP_SUMMARY_LIMIT_BYTES, summaryTooLargeMessage } from './messages.js';
import type { SecretMasker } from './secret-masker.js';

export class StepSummaryTooLargeError extends FileCommandError {
  constructor(readonly sizeBytes: number) {
    super('step_summary', summaryTooLargeMessage(sizeBytes));
  }
}

export async function readStepSummary(path: string, masker?: SecretMasker): Promise<string | undefined> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
  if (size === 0) return undefined;
  if (size > STEP_SUMMARY_LIMIT_BYTES) throw new StepSummaryTooLargeError(size);
  let text = await readFile(path, 'utf8');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!masker) return text;
  const lines = text.split(/\r\n|\n|\r/);
  // A final line ending does not start another line (StreamReader.ReadLine).
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => `${masker.mask(line)}\n`).join('');
}
