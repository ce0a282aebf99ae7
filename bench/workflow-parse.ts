/**
 * Workflow loading speed: a realistic ~200-line CI workflow (triggers with filters and dispatch
 * inputs, permissions, concurrency, a matrix, services, containers, environments, many steps
 * with expressions) read, schema-validated and converted by loadWorkflow(), warm, many times.
 * Prints figures only; run with `node --import tsx bench/workflow-parse.ts`.
 * BENCH_RUNS sets the measured runs (default 2000).
 */
import { performance } from 'node:perf_hooks';
import { loadWorkflow } from '../core/workflow/parser/index.js';

const WARMUP = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);

const testJob = (name: string, node: string): string => `
  ${name}:
    name: Test (\${{ matrix.os }}, node \${{ matrix.node }})
    needs: [lint]
    runs-on: \${{ matrix.os }}
    timeout-minutes: 30
    continue-on-error: \${{ matrix.experimental }}
    strategy:
      fail-fast: false
      max-parallel: 6
      matrix:
        os: [ubuntu-latest, windows-latest, macos-latest]
        node: [18, 20, ${node}]
        experimental: [false]
        include:
          - os: ubuntu-latest
            node: 23
            experimental: true
        exclude:
          - os: macos-latest
            node: 18
    env:
      CI: true
      NODE_OPTIONS: --max-old-space-size=4096
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - name: Set up Node \${{ matrix.node }}
        uses: actions/setup-node@v4
        with:
          node-version: \${{ matrix.node }}
          cache: npm
      - name: Install
        run: npm ci
      - name: Unit tests
        run: npm test -- --shard=\${{ strategy.job-index }}/\${{ strategy.job-total }}
        env:
          FORCE_COLOR: 1
      - name: Coverage
        if: matrix.os == 'ubuntu-latest' && !matrix.experimental
        run: |
          npm run coverage
          echo "coverage=$(cat coverage/total.txt)" >> "$GITHUB_OUTPUT"
        id: coverage
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: results-\${{ matrix.os }}-\${{ matrix.node }}
          path: test-results/
          retention-days: 7
`;

const WORKFLOW = `name: CI
run-name: CI for \${{ github.ref_name }} by @\${{ github.actor }}
on:
  push:
    branches: [main, 'release/**']
    paths-ignore: ['docs/**', '**.md']
  pull_request:
    types: [opened, synchronize, reopened]
    branches: [main]
  workflow_dispatch:
    inputs:
      log-level:
        description: Log level
        type: choice
        options: [info, debug]
        default: info
      deploy:
        type: boolean
        default: false
permissions:
  contents: read
  pull-requests: write
concurrency:
  group: ci-\${{ github.workflow }}-\${{ github.ref }}
  cancel-in-progress: \${{ github.event_name == 'pull_request' }}
env:
  REGISTRY: ghcr.io
  IMAGE: \${{ github.repository }}
defaults:
  run:
    shell: bash
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npm run lint
      - run: npm run typecheck
${testJob('test', '22')}
${testJob('test-next', '24')}
  integration:
    needs: [test]
    runs-on: ubuntu-latest
    container:
      image: node:20-bookworm
      options: --cpus 2
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_PASSWORD: postgres
        ports: ['5432:5432']
        options: >-
          --health-cmd pg_isready
          --health-interval 10s
          --health-timeout 5s
          --health-retries 5
      redis:
        image: redis:7
        ports: ['6379:6379']
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: npm run test:integration
        env:
          DATABASE_URL: postgres://postgres:postgres@postgres:5432/postgres
          REDIS_URL: redis://redis:6379
  build-image:
    needs: [integration]
    if: github.event_name == 'push' || inputs.deploy
    runs-on: ubuntu-latest
    permissions:
      contents: read
      packages: write
      id-token: write
    outputs:
      digest: \${{ steps.push.outputs.digest }}
    steps:
      - uses: actions/checkout@v4
      - uses: docker/setup-buildx-action@v3
      - uses: docker/login-action@v3
        with:
          registry: \${{ env.REGISTRY }}
          username: \${{ github.actor }}
          password: \${{ secrets.GITHUB_TOKEN }}
      - id: push
        uses: docker/build-push-action@v6
        with:
          push: true
          tags: \${{ env.REGISTRY }}/\${{ env.IMAGE }}:\${{ github.sha }}
  deploy:
    needs: [build-image]
    if: \${{ github.ref == 'refs/heads/main' }}
    runs-on: ubuntu-latest
    environment:
      name: production
      url: https://example.com
    concurrency: deploy-production
    steps:
      - run: ./deploy.sh \${{ needs.build-image.outputs.digest }}
        working-directory: ops
        timeout-minutes: 15
`;

const lines = WORKFLOW.split('\n').length;
const file = { name: '.github/workflows/ci.yml', content: WORKFLOW };
const first = await loadWorkflow(file);
if (first.errors.length > 0) throw new Error(`benchmark workflow is invalid: ${first.errors.map((e) => e.githubMessage).join('; ')}`);

for (let i = 0; i < WARMUP; i++) await loadWorkflow(file);
const samples: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  await loadWorkflow(file);
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const mean = samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? Number.NaN;

console.log(`workflow-parse: ${lines} lines, ${WORKFLOW.length} chars, ${RUNS} runs after ${WARMUP} warm-up`);
console.log(`  mean ${mean.toFixed(3)} ms  p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  (${(1000 / mean).toFixed(0)} workflows/s)`);
