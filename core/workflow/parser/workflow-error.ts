import type { WorkflowError } from './types.js';

/** `file:line:col: message`, leaving out the parts an error has no value for. */
export function formatWorkflowError(error: WorkflowError): string {
  const place = [error.file, error.line, error.line === undefined ? undefined : error.column]
    .filter((part) => part !== undefined)
    .join(':');
  return place === '' ? error.message : `${place}: ${error.message}`;
}

/** GitHub's location prefix: `file (Line: 3, Col: 5):`, `file:`, `(Line: 3, Col: 5):` or nothing. */
export function githubPrefix(file: string | undefined, line: number | undefined, column: number | undefined): string {
  const position = line !== undefined && column !== undefined ? `(Line: ${line}, Col: ${column})` : undefined;
  if (file) return position ? `${file} ${position}:` : `${file}:`;
  return position ? `${position}:` : '';
}
