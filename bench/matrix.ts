/**
 * Matrix expansion speed: a 256-job matrix (16 × 17 cross product, one exclude removing 16
 * combinations, nine includes extending combinations, nested values), expanded repeatedly.
 * Prints figures only; run with `node --import tsx bench/matrix.ts`.
 */
import { performance } from 'node:perf_hooks';
import { expandMatrix, matrixJobName, type JsonObject } from '../core/workflow/matrix/index.js';

const WARMUP = 200;
const RUNS = 2000;

const matrix: JsonObject = {
  os: Array.from({ length: 16 }, (_, i) => `os-${i}`),
  node: Array.from({ length: 17 }, (_, i) => ({ version: 10 + i, lts: i % 2 === 0 })),
  exclude: [{ node: { version: 26 } }],
  include: [
    { experimental: false },
    ...Array.from({ length: 8 }, (_, i) => ({ os: `os-${i}`, experimental: true, npm: 6 + i })),
  ],
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function measure(label: string, fn: () => void): void {
  for (let i = 0; i < WARMUP; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((sum, t) => sum + t, 0) / samples.length;
  const fmt = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `${label}: mean ${fmt(mean)}, p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}, ` +
      `max ${fmt(samples[samples.length - 1] ?? NaN)} (${RUNS} runs)`,
  );
}

const check = expandMatrix(matrix, { jobId: 'bench' });
if (!check.ok) throw new Error(check.errors.join('; '));
console.log(`combinations: ${check.combinations.length}`);

measure('expandMatrix (256 jobs)', () => {
  expandMatrix(matrix, { jobId: 'bench' });
});
measure('matrixJobName × 256', () => {
  for (const combination of check.combinations) matrixJobName('build', combination);
});
