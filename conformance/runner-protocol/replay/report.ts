/**
 * What the replay prints: one line per scenario (`<scenario>: pass`, `<scenario>: fail <why>`),
 * quarantined and skipped ones set apart, then `protocol: <passed>/<total> passed`, where total
 * counts the scenarios that ran (quarantined and skipped ones are not in it). `--json` prints one
 * document with the same facts and each scenario's exchanges.
 */
import type { ReplayResult } from './run-corpus.js';

export interface Summary {
  readonly passed: number;
  readonly total: number;
  readonly quarantined: number;
  readonly skipped: number;
}

export function summarize(results: readonly ReplayResult[]): Summary {
  const count = (status: ReplayResult['status']) => results.filter((result) => result.status === status).length;
  const passed = count('pass');
  return { passed, total: passed + count('fail'), quarantined: count('quarantined'), skipped: count('skip') };
}

/** The line of a scenario that ran (pass/fail); undefined for quarantined and skipped ones. */
export function resultLine(result: ReplayResult): string | undefined {
  if (result.status === 'pass') return `${result.name}: pass`;
  if (result.status === 'fail') return `${result.name}: fail ${(result.reason ?? '').replace(/\s+/g, ' ')}`;
  return undefined;
}

/** The lines printed after the scenarios: the set-apart ones, then the count (always last). */
export function closingLines(results: readonly ReplayResult[]): string[] {
  const lines: string[] = [];
  for (const result of results) {
    if (result.status === 'quarantined') lines.push(`${result.name}: quarantined ${(result.reason ?? '').replace(/\s+/g, ' ')}`);
    if (result.status === 'skip') lines.push(`${result.name}: skip ${result.reason ?? ''}`);
  }
  const summary = summarize(results);
  lines.push(`protocol: ${summary.passed}/${summary.total} passed`);
  return lines;
}

export function jsonReport(results: readonly ReplayResult[], context: { readonly runner: string; readonly target: string }): string {
  return JSON.stringify({ ...context, ...summarize(results), scenarios: results }, null, 2);
}
