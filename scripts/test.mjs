#!/usr/bin/env node
// Collects the test files (unit tests beside the code, integration tests in test/, suites in
// conformance/) and runs them with node's own test runner over tsx, so TypeScript runs as-is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const onlyUnit = args.includes('--only-unit');
const filters = args.filter((a) => !a.startsWith('--'));
const roots = onlyUnit
  ? ['core', 'backends', 'plugins', 'builtins', 'cli', 'runner']
  : ['core', 'backends', 'plugins', 'builtins', 'cli', 'runner', 'test', 'conformance'];

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
// with one lane finishing them alone; everything else in path order. (The svc-runner Worker
// suites left this list when their workers stopped starting through tsx.)
const LONGEST_FIRST = [
  'test/e2e/pool-run.test.ts',
  'test/runner-protocol/listener-dispatch.test.ts',
  'test/runtime-services/cache-toolkit.test.ts',
  'conformance/runner-protocol/replay.test.ts',
  'test/runtime-services/artifact-cli.test.ts',
  'conformance/runner-protocol/svc-runner-sequence.test.ts',
  'test/runtime-services/artifact-toolkit.test.ts',
  'test/runtime-services/oidc.test.ts',
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
// Starting a process with tsx and importing the code through it costs about a second of CPU:
// most of a unit test file's time, and a good part of a small integration file's. Those files
// run in batch processes instead, each file's tests inside a suite named after the file (its
// root-level hooks become that suite's), one file after the other as within a file:
// - unit tests (beside the code), spread over a few batches;
// - integration folders whose files start in-process hosts and change nothing process-wide
//   (environment, working directory) that every file of the folder does not change alike
//   (checkout-relay's support.ts isolates git config for all of them), a few files of one folder
//   per batch, so no batch gets long.
// A file with a top-level await runs alone: the code after its await loses the batch suite's
// context (Node 20), so its tests would register at the root, after the batch may have ended.
// --no-batch runs every file in a process of its own.
const UNIT_ROOTS = ['core/', 'backends/', 'plugins/', 'builtins/', 'cli/', 'runner/'];
const BATCHED_FOLDERS = ['test/checkout-relay/', 'test/engine/', 'test/kernel/', 'test/runner-protocol/'];
const FILES_PER_FOLDER_BATCH = 4;
const groups = [];
const topLevelAwait = (file) => /^[^\s/*].*\bawait\b/m.test(readFileSync(join(root, file), 'utf8'));
if (!args.includes('--no-batch')) {
  const units = files.filter((f) => UNIT_ROOTS.some((r) => f.startsWith(r)) && !topLevelAwait(f));
  const unitBatches = Array.from({ length: Math.min(units.length, concurrency * 2) }, () => []);
  units.forEach((file, index) => unitBatches[index % unitBatches.length].push(file));
  for (const folder of BATCHED_FOLDERS) {
    const inFolder = files.filter((f) => f.startsWith(folder) && !f.slice(folder.length).includes('/') && rank(f) === LONGEST_FIRST.length && !topLevelAwait(f));
    for (let i = 0; i < inFolder.length; i += FILES_PER_FOLDER_BATCH) groups.push({ name: folder.replace(/\/$/, '').replace(/\//g, '-'), files: inFolder.slice(i, i + FILES_PER_FOLDER_BATCH) });
  }
  for (const batch of unitBatches) groups.push({ name: 'unit', files: batch });
}
const batched = new Set(groups.filter((group) => group.files.length > 1).flatMap((group) => group.files));
let batchDir;
const batchEntries = { folders: [], units: [] };
if (batched.size > 0) {
  batchDir = mkdtempSync(join(tmpdir(), 'svc-test-batches-'));
  groups.forEach((group, index) => {
    if (group.files.length < 2) return;
    const path = join(batchDir, `${group.name}-batch-${index + 1}.test.mjs`);
    const list = JSON.stringify(group.files.map((file) => [file, pathToFileURL(join(root, file)).href]), null, 2);
    writeFileSync(
      path,
      `// Generated by scripts/test.mjs: test files run one after the other in this process.\nimport { describe } from 'node:test';\nfor (const [file, url] of ${list}) describe(file, async () => {\n  await import(url);\n});\n`,
    );
    (group.name === 'unit' ? batchEntries.units : batchEntries.folders).push(path);
  });
}
// The longest files first, then integration batches, the other files, and the short unit batches last.
const single = files.filter((f) => !batched.has(f));
const entries = [...single.filter((f) => rank(f) < LONGEST_FIRST.length), ...batchEntries.folders, ...single.filter((f) => rank(f) === LONGEST_FIRST.length), ...batchEntries.units];
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...entries],
  { cwd: root, stdio: 'inherit', env },
);
if (builtBundle) rmSync(builtBundle, { recursive: true, force: true });
if (batchDir) rmSync(batchDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
