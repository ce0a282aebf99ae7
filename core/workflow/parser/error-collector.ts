/**
 * Collects workflow errors the way GitHub's parser does: at most 10, each message cut after 500
 * characters, in the order they are found. Fixes that find an error the TypeScript converter
 * missed insert it where GitHub would have reported it (document order), not at the end.
 */
import type { WorkflowError } from './types.js';
import { githubPrefix } from './workflow-error.js';

export const MAX_ERRORS = 10;
export const MAX_ERROR_MESSAGE_LENGTH = 500;

export interface ErrorSite {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** Whether GitHub prints the line and column (it does not for errors raised for a whole file). */
  readonly printPosition?: boolean;
}

interface Entry {
  error: WorkflowError;
}

export class ErrorCollector {
  readonly #entries: Entry[] = [];

  get count(): number {
    return this.#entries.length;
  }

  list(): WorkflowError[] {
    return this.#entries.map((entry) => entry.error);
  }

  /** An error at a place; the GitHub text gets the location prefix. */
  add(site: ErrorSite, message: string): void {
    this.#push(this.#entries.length, build(site, message));
  }

  /** An error GitHub records without any prefix (limits, nesting depth, job count). */
  addUnplaced(message: string): void {
    this.#push(this.#entries.length, { message, githubMessage: truncate(message) });
  }

  /** Like `add`, but placed before the first error of the same file found further down. */
  addInDocumentOrder(site: ErrorSite, message: string): void {
    const error = build(site, message);
    const index = this.#entries.findIndex((entry) => isAfter(entry.error, error));
    this.#push(index === -1 ? this.#entries.length : index, error);
  }

  /**
   * Marks errors as coming from a called workflow, as GitHub does for every error whose text does
   * not already start with the caller's file name:
   * `In <caller> (Line: l, Col: c): Error from called workflow <original text>`.
   */
  prefixForCaller(callerFile: string, line: number | undefined, column: number | undefined): void {
    const position = line === undefined || column === undefined ? '' : ` (Line: ${line}, Col: ${column})`;
    const prefix = `In ${callerFile}${position}: Error from called workflow`;
    for (const entry of this.#entries) {
      const original = entry.error.githubMessage;
      if (original.startsWith(callerFile)) continue;
      entry.error = {
        file: callerFile,
        ...(line === undefined ? {} : { line }),
        ...(column === undefined ? {} : { column }),
        message: `Error from called workflow ${original}`,
        githubMessage: original === '' ? prefix : `${prefix} ${original}`,
      };
    }
  }

  #push(index: number, error: WorkflowError): void {
    if (this.#entries.length >= MAX_ERRORS) return;
    this.#entries.splice(index, 0, { error });
  }
}

function build(site: ErrorSite, message: string): WorkflowError {
  const printed = site.printPosition === false ? githubPrefix(site.file, undefined, undefined) : githubPrefix(site.file, site.line, site.column);
  return {
    ...(site.file === undefined ? {} : { file: site.file }),
    ...(site.line === undefined ? {} : { line: site.line }),
    ...(site.column === undefined ? {} : { column: site.column }),
    message,
    githubMessage: truncate(printed === '' ? message : `${printed} ${message}`),
  };
}

function truncate(message: string): string {
  return message.length > MAX_ERROR_MESSAGE_LENGTH ? `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}[...]` : message;
}

function isAfter(existing: WorkflowError, added: WorkflowError): boolean {
  if (existing.file !== added.file || existing.line === undefined || added.line === undefined) return false;
  if (existing.line !== added.line) return existing.line > added.line;
  return (existing.column ?? 0) > (added.column ?? 0);
}
