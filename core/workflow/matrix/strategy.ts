/**
 * A job's `strategy` resolved into the jobs it runs ("jobs.<job_id>.strategy"): the matrix
 * combinations, `fail-fast` (default true: one failure cancels the other in-progress and queued
 * jobs of the matrix) and `max-parallel` (default: no limit beyond runner availability), and
 * the `strategy` context each job sees.
 */
import { expandMatrix } from './expand-matrix.js';
import type { JsonObject, JsonValue, MatrixCombination } from './types.js';

/** The `strategy` context of one job. */
export interface StrategyContext {
  readonly 'fail-fast': boolean;
  readonly 'job-index': number;
  readonly 'job-total': number;
  readonly 'max-parallel': number;
}

export interface StrategyJob {
  /** The job's `matrix` context; null without a matrix or when every combination was excluded. */
  readonly matrix: JsonObject | null;
  /** The combination it came from (for `matrixJobName`); undefined when `matrix` is null. */
  readonly combination: MatrixCombination | undefined;
  readonly strategy: StrategyContext;
}

export interface StrategyPlan {
  readonly failFast: boolean;
  /** The declared limit on jobs running at once (> 0), or undefined for none. */
  readonly maxParallel: number | undefined;
  readonly jobs: readonly StrategyJob[];
}

export type StrategyResolution =
  | { readonly ok: true; readonly plan: StrategyPlan }
  | { readonly ok: false; readonly errors: readonly string[] };

export function resolveStrategy(strategy: JsonValue | undefined, options: { readonly jobId?: string } = {}): StrategyResolution {
  if (strategy === undefined || strategy === null) return { ok: true, plan: plan(true, undefined, []) };
  if (typeof strategy !== 'object' || Array.isArray(strategy)) {
    return { ok: false, errors: ['strategy must be a map of fail-fast, max-parallel and matrix'] };
  }
  const map = strategy as JsonObject;
  const errors: string[] = [];
  for (const key of Object.keys(map)) {
    if (key !== 'fail-fast' && key !== 'max-parallel' && key !== 'matrix') errors.push(`Unexpected value '${key}' in strategy`);
  }

  const failFast = map['fail-fast'] ?? true;
  if (typeof failFast !== 'boolean') errors.push('strategy fail-fast must be true or false');
  const maxParallel = map['max-parallel'] ?? null;
  if (maxParallel !== null && (typeof maxParallel !== 'number' || !Number.isFinite(maxParallel))) {
    errors.push('strategy max-parallel must be a number');
  }

  let combinations: readonly MatrixCombination[] = [];
  if (Object.hasOwn(map, 'matrix')) {
    const expansion = expandMatrix(map['matrix'], options);
    if (expansion.ok) combinations = expansion.combinations;
    else errors.push(...expansion.errors);
  }
  if (errors.length > 0) return { ok: false, errors };

  // The runner reads max-parallel as a 32-bit integer; zero or less means no limit.
  const limit = typeof maxParallel === 'number' ? Math.trunc(maxParallel) : 0;
  return { ok: true, plan: plan(failFast === true, limit > 0 ? limit : undefined, combinations) };
}

function plan(failFast: boolean, maxParallel: number | undefined, combinations: readonly MatrixCombination[]): StrategyPlan {
  const total = Math.max(combinations.length, 1);
  const context = (index: number): StrategyContext => ({
    'fail-fast': failFast,
    'job-index': index,
    'job-total': total,
    'max-parallel': maxParallel ?? total,
  });
  const jobs: StrategyJob[] =
    combinations.length === 0
      ? [{ matrix: null, combination: undefined, strategy: context(0) }]
      : combinations.map((combination, index) => ({ matrix: combination.values, combination, strategy: context(index) }));
  return { failFast, maxParallel, jobs };
}
