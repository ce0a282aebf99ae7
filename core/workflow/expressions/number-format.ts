import { formatRunnerNumber, parseRunnerNumber } from '../../protocol/index.js';

/**
 * Numbers where they meet strings in expressions (`format()`, `join()`, `contains()`,
 * `toJSON()`, comparisons, `${{ }}` interpolation). The runner's .NET "G15" rules live in
 * core/protocol (`formatRunnerNumber`); the expression engine differs in one point: it maps
 * negative zero to `0` before formatting, where plain .NET prints `-0`.
 */
export function formatNumber(value: number): string {
  return value === 0 ? '0' : formatRunnerNumber(value);
}

/** A string read as a number the way the runner's expression engine does. */
export const parseNumber: (text: string) => number = parseRunnerNumber;
