#!/usr/bin/env node
// Collects the test files (unit tests beside the code, integration tests in test/, suites in
// conformance/) and runs them with node's own test runner over tsx, so TypeScript runs as-is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const onlyUnit = args.includes('--only-unit');
const filters = args.filter((a) => !a.startsWith('--'));
const roots = onlyUnit
  ? ['core', 'backends', 'plugins', 'cli', 'runner']
  : ['core', 'backends', 'plugins', 'cli', 'runner', 'test', 'conformance'];

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

// The longest files (a minute or so each on two cores) start first, so the run does not end
// with one lane finishing them alone; everything else in path order.
const LONGEST_FIRST = [
  'conformance/runner-protocol/replay.test.ts',
  'test/runtime-services/cache-toolkit.test.ts',
  'test/e2e/pool-run.test.ts',
  'test/runtime-services/artifact-toolkit.test.ts',
  'conformance/runner-protocol/svc-runner-sequence.test.ts',
  'test/runner-protocol/listener-dispatch.test.ts',
  'test/svc-runner/actions-local.test.ts',
  'test/svc-runner/worker-run-service.test.ts',
];
const rank = (file) => {
  const index = LONGEST_FIRST.indexOf(file);
  return index === -1 ? LONGEST_FIRST.length : index;
};
const files = roots
  .flatMap((r) => walk(join(root, r), []))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Tests that start our CLIs (`svc serve`, `svc run`, `svc-runner`) run the production bundle, as
// users do: built once here into dist-test-suite-<pid>/ (dist/ is left alone), unless
// SVC_TEST_BUNDLE names one already or --from-source asks for the sources through tsx.
const env = { ...process.env, NODE_ENV: 'test' };
let builtBundle;
if (!onlyUnit && !args.includes('--from-source') && !env.SVC_TEST_BUNDLE) {
  builtBundle = join(root, `dist-test-suite-${process.pid}`);
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), builtBundle], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(join(builtBundle, 'cli/svc.js'))) {
    console.error(`building the test bundle into ${builtBundle} failed`);
    process.exit(1);
  }
  env.SVC_TEST_BUNDLE = builtBundle;
}
// Most integration tests wait on servers, runners and child processes more than they compute:
// one file more than there are cores keeps the cores busy.
const concurrency = Math.max(2, availableParallelism() + 1);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
  { cwd: root, stdio: 'inherit', env },
);
if (builtBundle) rmSync(builtBundle, { recursive: true, force: true });
process.exit(result.status ?? 1);
