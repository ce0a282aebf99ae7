/**
 * A workflow-semantics conformance suite: a named list of cases, each passing or failing with
 * a reason. `run-all.ts` prints `<suite>: <passed>/<total> passed` per suite; each suite's
 * `*.test.ts` asserts every case passes so `npm test` fails on any regression.
 */
export interface CaseResult {
  /** Stable, human-readable case id (file name, file#index, ...). */
  readonly id: string;
  readonly passed: boolean;
  /** Why it failed: expected vs actual, kept short. */
  readonly reason?: string;
}

export interface ConformanceSuite {
  readonly name: string;
  /** The part of the shared corpus the suite reads (test/support/corpus.ts), when it reads one. */
  readonly corpus?: string;
  run(): Promise<readonly CaseResult[]>;
}
