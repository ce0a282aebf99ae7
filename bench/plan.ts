/**
 * Planning speed: a workflow whose `test` job has a 256-combination matrix (16 × 16, runner and
 * name from the matrix, a matrix-dependent concurrency group and environment), a `lint` job, and
 * two jobs after them (`package` needs both, `deploy` needs `package`). The workflow is loaded
 * once; `planWorkflow` runs repeatedly. Prints figures only:
 * `node --import tsx bench/plan.ts` (or `npm run bench:plan`).
 */
import { performance } from 'node:perf_hooks';
import { loadWorkflow, localEvent, planWorkflow } from '../core/workflow/index.js';

const WARMUP = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

const range = (n: number, prefix: string): string => `[${Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(', ')}]`;

const WORKFLOW = `name: bench
run-name: bench \${{ github.ref_name }}
on: push
concurrency: bench-\${{ github.ref }}
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: make lint
  test:
    name: test \${{ matrix.os }} node \${{ matrix.node }}
    runs-on: \${{ matrix.os }}
    timeout-minutes: 30
    concurrency:
      group: test-\${{ github.ref }}-\${{ matrix.os }}-\${{ matrix.node }}
      cancel-in-progress: true
    environment:
      name: ci-\${{ matrix.os }}
    strategy:
      fail-fast: false
      matrix:
        os: ${range(16, 'os-')}
        node: ${range(16, 'v')}
    steps:
      - uses: actions/checkout@v4
      - run: npm test
  package:
    needs: [lint, test]
    runs-on: ubuntu-latest
    steps:
      - run: make package
  deploy:
    needs: package
    runs-on: [self-hosted, linux]
    environment: production
    steps:
      - run: make deploy
`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const loaded = await loadWorkflow({ name: '.github/workflows/bench.yml', content: WORKFLOW });
if (loaded.errors.length > 0) throw new Error(loaded.errors.map((error) => error.message).join('; '));
const options = { event: localEvent({ repository: 'octo/bench', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'bench' }) };

const check = planWorkflow(loaded, options);
if (check.errors.length > 0) throw new Error(check.errors.map((error) => error.message).join('; '));
console.log(`jobs per plan: ${check.jobCount} (${check.jobs.length} job entries, test matrix ${check.jobs[1]?.instances.length ?? 0})`);

for (let i = 0; i < WARMUP; i++) planWorkflow(loaded, options);
const samples: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  planWorkflow(loaded, options);
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const mean = samples.reduce((sum, t) => sum + t, 0) / samples.length;
const fmt = (ms: number): string => `${ms.toFixed(2)} ms`;
console.log(
  `planWorkflow (256-job matrix + 3 jobs): mean ${fmt(mean)}, p50 ${fmt(percentile(samples, 50))}, ` +
    `p99 ${fmt(percentile(samples, 99))}, max ${fmt(samples[samples.length - 1] ?? NaN)} (${RUNS} runs)`,
);

const loadStart = performance.now();
const LOADS = 20;
for (let i = 0; i < LOADS; i++) await loadWorkflow({ name: '.github/workflows/bench.yml', content: WORKFLOW });
console.log(`loadWorkflow of the same file, for scale: ${fmt((performance.now() - loadStart) / LOADS)} per load`);
