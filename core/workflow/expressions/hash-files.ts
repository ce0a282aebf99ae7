/**
 * `hashFiles(...patterns)`: the expression side only. Hashing files is the runner's job, behind
 * this port; the expression layer turns the arguments into patterns the way the runner does
 * (each converted to a string; a first argument `--follow-symbolic-links` is an option) and
 * hands them over.
 */
import { FunctionFailure } from './errors.js';

export interface HashFilesOptions {
  readonly followSymbolicLinks: boolean;
}

export interface HashFilesPort {
  /**
   * The hash of the files under the workspace matching the glob patterns, or '' when none match.
   * A promise is fine for `evaluateExpressionAsync`; the synchronous evaluation needs a string.
   */
  hash(patterns: readonly string[], options: HashFilesOptions): string | Promise<string>;
}

const FOLLOW_OPTION = '--follow-symbolic-links';

export interface HashFilesRequest {
  readonly patterns: readonly string[];
  readonly options: HashFilesOptions;
  /** Identity of the request, for memoising results within one evaluation. */
  readonly key: string;
}

/** Reads the function's arguments (already strings) into a request. */
export function hashFilesRequest(args: readonly string[]): HashFilesRequest {
  let followSymbolicLinks = false;
  let patterns = args;
  const first = args[0];
  if (first !== undefined && first.startsWith('--')) {
    if (first.toLowerCase() !== FOLLOW_OPTION) {
      // The runner's text, spelling included.
      throw new FunctionFailure(
        `Invalid glob option ${first}, avaliable option: '${FOLLOW_OPTION}'.`,
      );
    }
    followSymbolicLinks = true;
    patterns = args.slice(1);
  }
  return {
    patterns,
    options: { followSymbolicLinks },
    key: JSON.stringify([followSymbolicLinks, patterns]),
  };
}
