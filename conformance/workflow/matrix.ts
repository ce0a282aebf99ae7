/**
 * Matrix conformance: expected combinations are the ones GitHub's documentation lists
 * (docs.github.com, "Running variations of jobs in a workflow" / "Workflow syntax:
 * jobs.<job_id>.strategy"), the section named above each case. Error messages and display names
 * come from GitHub's matrix and job-name builders, open-sourced in the runner's workflow parser
 * (actions/runner `src/Sdk/WorkflowParser/Conversion/MatrixBuilder.cs`, `JobNameBuilder.cs`,
 * `WorkflowTemplateConverter.cs`); those cases say so.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  expandMatrix,
  matrixJobName,
  resolveStrategy,
  type JsonObject,
  type JsonValue,
} from '../../core/workflow/matrix/index.js';
import type { CaseResult, ConformanceSuite } from './suite.js';

interface MatrixCase {
  readonly id: string;
  readonly matrix: JsonValue;
  /** The combinations in order; or only their number when the docs give only that. */
  readonly combinations?: readonly JsonObject[];
  readonly count?: number;
  /** Display names, in order, for a job named `jobName` (default `build`). */
  readonly names?: readonly string[];
  readonly jobName?: string;
  /** The expansion must fail with exactly these messages. */
  readonly errors?: readonly string[];
  readonly jobId?: string;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

const CASES: readonly MatrixCase[] = [
  // "Using a matrix strategy": six jobs, in this order; the first variable varies slowest.
  {
    id: 'using-a-matrix-strategy/order',
    matrix: { version: [10, 12, 14], os: ['ubuntu-latest', 'windows-latest'] },
    combinations: [10, 12, 14].flatMap((version) => ['ubuntu-latest', 'windows-latest'].map((os) => ({ version, os }))),
  },
  // "Example: Using a single-dimension matrix".
  { id: 'single-dimension', matrix: { version: [10, 12, 14] }, combinations: [{ version: 10 }, { version: 12 }, { version: 14 }] },
  // "Example: Using a multi-dimension matrix": six jobs.
  { id: 'multi-dimension', matrix: { os: ['ubuntu-22.04', 'ubuntu-20.04'], version: [10, 12, 14] }, count: 6 },
  // Same section: "A variable configuration in a matrix can be an array of objects" (4 jobs).
  {
    id: 'multi-dimension/objects',
    matrix: {
      os: ['ubuntu-latest', 'macos-latest'],
      node: [{ version: 14 }, { version: 20, env: 'NODE_OPTIONS=--openssl-legacy-provider' }],
    },
    combinations: ['ubuntu-latest', 'macos-latest'].flatMap((os) => [
      { os, node: { version: 14 } },
      { os, node: { version: 20, env: 'NODE_OPTIONS=--openssl-legacy-provider' } },
    ]),
  },
  // "Expanding or adding matrix configurations": the fruit/animal example, six jobs.
  {
    id: 'include/fruit-and-animal',
    matrix: {
      fruit: ['apple', 'pear'],
      animal: ['cat', 'dog'],
      include: [
        { color: 'green' },
        { color: 'pink', animal: 'cat' },
        { fruit: 'apple', shape: 'circle' },
        { fruit: 'banana' },
        { fruit: 'banana', animal: 'cat' },
      ],
    },
    combinations: [
      { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
      { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
      { fruit: 'pear', animal: 'cat', color: 'pink' },
      { fruit: 'pear', animal: 'dog', color: 'green' },
      { fruit: 'banana' },
      { fruit: 'banana', animal: 'cat' },
    ],
  },
  // Same section: "seven jobs, testing five versions for perl and only two for macos".
  {
    id: 'include/perl',
    matrix: {
      os: ['ubuntu-latest'],
      perl: ['5.16', '5.20', '5.26', '5.30', 'latest'],
      include: [{ os: 'macos-latest', perl: '5.26' }, { os: 'macos-latest', perl: 'latest' }],
    },
    combinations: [
      ...['5.16', '5.20', '5.26', '5.30', 'latest'].map((perl) => ({ os: 'ubuntu-latest', perl })),
      { os: 'macos-latest', perl: '5.26' },
      { os: 'macos-latest', perl: 'latest' },
    ],
  },
  // "Example: Expanding configurations": six jobs, npm 6 only for windows-latest with node 16.
  {
    id: 'include/expanding-configurations',
    matrix: { os: ['windows-latest', 'ubuntu-latest'], node: [12, 14, 16], include: [{ os: 'windows-latest', node: 16, npm: 6 }] },
    combinations: ['windows-latest', 'ubuntu-latest'].flatMap((os) =>
      [12, 14, 16].map((node) => (os === 'windows-latest' && node === 16 ? { os, node, npm: 6 } : { os, node })),
    ),
  },
  // "Example: Adding configurations": ten jobs, the last one windows-latest with version 17.
  {
    id: 'include/adding-configurations',
    matrix: { os: ['macos-latest', 'windows-latest', 'ubuntu-latest'], version: [12, 14, 16], include: [{ os: 'windows-latest', version: 17 }] },
    combinations: [
      ...['macos-latest', 'windows-latest', 'ubuntu-latest'].flatMap((os) => [12, 14, 16].map((version) => ({ os, version }))),
      { os: 'windows-latest', version: 17 },
    ],
  },
  // Same section: "If you don't specify any matrix variables, all configurations under include
  // will run" (two jobs).
  {
    id: 'include/include-only',
    matrix: { include: [{ site: 'production', datacenter: 'site-a' }, { site: 'staging', datacenter: 'site-b' }] },
    combinations: [{ site: 'production', datacenter: 'site-a' }, { site: 'staging', datacenter: 'site-b' }],
    jobName: 'includes_only',
    names: ['includes_only (production, site-a)', 'includes_only (staging, site-b)'],
  },
  // "Excluding matrix configurations": 12 configurations minus 3 excluded = nine jobs.
  {
    id: 'exclude/partial-match',
    matrix: {
      os: ['macos-latest', 'windows-latest'],
      version: [12, 14, 16],
      environment: ['staging', 'production'],
      exclude: [{ os: 'macos-latest', version: 12, environment: 'production' }, { os: 'windows-latest', version: 16 }],
    },
    combinations: ['macos-latest', 'windows-latest'].flatMap((os) =>
      [12, 14, 16].flatMap((version) =>
        ['staging', 'production']
          .filter((environment) => !(os === 'macos-latest' && version === 12 && environment === 'production'))
          .filter(() => !(os === 'windows-latest' && version === 16))
          .map((environment) => ({ os, version, environment })),
      ),
    ),
  },
  // Same section: "All include combinations are processed after exclude. This allows you to use
  // include to add back combinations that were previously excluded."
  {
    id: 'exclude/include-adds-back',
    matrix: { os: ['a', 'b'], version: [1, 2], exclude: [{ os: 'a', version: 1 }], include: [{ os: 'a', version: 1 }] },
    combinations: [{ os: 'a', version: 2 }, { os: 'b', version: 1 }, { os: 'b', version: 2 }, { os: 'a', version: 1 }],
  },
  // "Handling failures": version 6, 7, 8 with experimental false, plus version 9 experimental.
  {
    id: 'fail-fast/experimental',
    matrix: { version: [6, 7, 8], experimental: [false], include: [{ version: 9, experimental: true }] },
    combinations: [
      { version: 6, experimental: false },
      { version: 7, experimental: false },
      { version: 8, experimental: false },
      { version: 9, experimental: true },
    ],
    jobName: 'test',
    names: ['test (6, false)', 'test (7, false)', 'test (8, false)', 'test (9, true)'],
  },
  // "matrix-keys-are-case-insensitive": "OS and os will be treated as the same variable."
  { id: 'keys/case-insensitive-exclude', matrix: { os: ['a', 'b'], exclude: [{ OS: 'a' }] }, combinations: [{ os: 'b' }] },
  { id: 'keys/case-insensitive-include', matrix: { os: ['a', 'b'], include: [{ OS: 'b', x: 1 }] }, combinations: [{ os: 'a' }, { os: 'b', x: 1 }] },
  // "Using a matrix strategy": "A matrix will generate a maximum of 256 jobs per workflow run."
  // Message as GitHub prints it ("Strategy expansion exceeded 256 results for job '<id>'").
  { id: 'limit/256-allowed', matrix: { a: range(16), b: range(16) }, count: 256 },
  { id: 'limit/257-refused', jobId: 'build', matrix: { a: range(16), b: range(16), include: [{ a: 'extra' }] }, errors: ["Strategy expansion exceeded 256 results for job 'build'"] },
  { id: 'limit/cross-product-refused', jobId: 'big', matrix: { a: range(17), b: range(16) }, errors: ["Strategy expansion exceeded 256 results for job 'big'"] },
  // "Using contexts to create matrices": the matrix comes from the event payload (already
  // evaluated here), `version` is [12, 14, 16].
  { id: 'from-context/client-payload', matrix: { version: [12, 14, 16] }, combinations: [{ version: 12 }, { version: 14 }, { version: 16 }] },
  // "Using an output to define two matrices": colors red, green, blue from fromJSON().
  {
    id: 'from-context/job-output',
    matrix: { color: ['red', 'green', 'blue'] },
    combinations: [{ color: 'red' }, { color: 'green' }, { color: 'blue' }],
    jobName: 'produce-artifacts',
    names: ['produce-artifacts (red)', 'produce-artifacts (green)', 'produce-artifacts (blue)'],
  },
  // "Excluding matrix configurations": "only has to be a partial match", applied to the
  // object-valued vector of the multi-dimension example.
  {
    id: 'exclude/partial-object-match',
    matrix: {
      os: ['ubuntu-latest', 'macos-latest'],
      node: [{ version: 14 }, { version: 20, env: 'NODE_OPTIONS=--openssl-legacy-provider' }],
      exclude: [{ os: 'macos-latest', node: { version: 20 } }],
    },
    combinations: [
      { os: 'ubuntu-latest', node: { version: 14 } },
      { os: 'ubuntu-latest', node: { version: 20, env: 'NODE_OPTIONS=--openssl-legacy-provider' } },
      { os: 'macos-latest', node: { version: 14 } },
    ],
  },
  // "Using a matrix strategy" example, with the display names GitHub's job-name builder gives.
  {
    id: 'names/using-a-matrix-strategy',
    matrix: { version: [10, 12], os: ['ubuntu-latest', 'windows-latest'] },
    jobName: 'example_matrix',
    names: [
      'example_matrix (10, ubuntu-latest)',
      'example_matrix (10, windows-latest)',
      'example_matrix (12, ubuntu-latest)',
      'example_matrix (12, windows-latest)',
    ],
  },
  // "Expanding or adding matrix configurations" fruit example: combinations of the cross product
  // show their vector values only, added combinations show all of theirs.
  {
    id: 'names/fruit-and-animal',
    matrix: {
      fruit: ['apple', 'pear'],
      animal: ['cat', 'dog'],
      include: [{ color: 'green' }, { color: 'pink', animal: 'cat' }, { fruit: 'apple', shape: 'circle' }, { fruit: 'banana' }, { fruit: 'banana', animal: 'cat' }],
    },
    names: ['build (apple, cat)', 'build (apple, dog)', 'build (pear, cat)', 'build (pear, dog)', 'build (banana)', 'build (banana, cat)'],
  },
  { id: 'errors/empty-matrix', matrix: {}, errors: ['Matrix must define at least one vector'] },
  // GitHub's matrix builder (MatrixBuilder.cs) examples 2 and 3: exclude one, include extra.
  {
    id: 'matrix-builder/exclude',
    matrix: { arch: ['x64', 'x86'], os: ['linux', 'windows'], exclude: [{ arch: 'x86', os: 'linux' }] },
    combinations: [{ arch: 'x64', os: 'linux' }, { arch: 'x64', os: 'windows' }, { arch: 'x86', os: 'windows' }],
  },
  {
    id: 'matrix-builder/include-extra',
    matrix: { arch: ['x64', 'x86'], os: ['linux', 'windows'], include: [{ arch: 'x64', os: 'linux', publish: true }] },
    combinations: [{ arch: 'x64', os: 'linux', publish: true }, { arch: 'x64', os: 'windows' }, { arch: 'x86', os: 'linux' }, { arch: 'x86', os: 'windows' }],
    names: ['build (x64, linux)', 'build (x64, windows)', 'build (x86, linux)', 'build (x86, windows)'],
  },
  // GitHub's workflow converter and matrix builder: the errors they raise.
  { id: 'errors/empty-vector', matrix: { os: [] }, errors: ["Matrix vector 'os' does not contain any values"] },
  { id: 'errors/no-vector', matrix: { include: [] }, errors: ['Matrix must define at least one vector'] },
  { id: 'errors/exclude-unknown-key', matrix: { os: ['a'], exclude: [{ arch: 'x' }] }, errors: ["Matrix exclude key 'arch' does not match any key within the matrix"] },
  { id: 'errors/empty-exclude', matrix: { os: ['a'], exclude: [{}] }, errors: ['Matrix exclude filter must not be empty'] },
  { id: 'errors/empty-include', matrix: { os: ['a'], include: [{}] }, errors: ['Matrix include mapping does not contain any values'] },
  // GitHub's job-name builder (JobNameBuilder.cs): values in order, nested values depth first,
  // include-added values not shown, 100 characters at most.
  {
    id: 'names/vectors-in-order',
    matrix: { os: ['ubuntu-latest'], node: [18, 20.5] },
    names: ['build (ubuntu-latest, 18)', 'build (ubuntu-latest, 20.5)'],
  },
  {
    id: 'names/objects-flattened',
    matrix: { os: ['ubuntu-latest'], node: [{ version: 20, env: 'NODE_OPTIONS=--openssl-legacy-provider' }] },
    names: ['build (ubuntu-latest, 20, NODE_OPTIONS=--openssl-legacy-provider)'],
  },
  {
    id: 'names/include-extras-hidden',
    matrix: { os: ['windows-latest'], node: [16], include: [{ os: 'windows-latest', node: 16, npm: 6 }] },
    names: ['build (windows-latest, 16)'],
  },
  { id: 'names/truncated', matrix: { v: ['x'.repeat(120)] }, names: [`build (${'x'.repeat(90)}...`] },
];

function check(c: MatrixCase): string | undefined {
  const result = expandMatrix(c.matrix, c.jobId === undefined ? {} : { jobId: c.jobId });
  if (c.errors) {
    if (result.ok) return `expected errors ${JSON.stringify(c.errors)}, got ${result.combinations.length} combinations`;
    return isDeepStrictEqual(result.errors, c.errors) ? undefined : `expected ${JSON.stringify(c.errors)}, got ${JSON.stringify(result.errors)}`;
  }
  if (!result.ok) return `unexpected errors: ${result.errors.join('; ')}`;
  const got = result.combinations.map((combination) => combination.values);
  if (c.combinations && !isDeepStrictEqual(got, c.combinations)) {
    return `expected ${JSON.stringify(c.combinations)}, got ${JSON.stringify(got)}`;
  }
  if (c.count !== undefined && got.length !== c.count) return `expected ${c.count} combinations, got ${got.length}`;
  if (c.names) {
    const names = result.combinations.map((combination) => matrixJobName(c.jobName ?? 'build', combination));
    if (!isDeepStrictEqual(names, c.names)) return `expected names ${JSON.stringify(c.names)}, got ${JSON.stringify(names)}`;
  }
  return undefined;
}

/** "jobs.<job_id>.strategy.fail-fast" (default true) and "...max-parallel" (docs example: 2). */
function strategyCases(): CaseResult[] {
  const results: CaseResult[] = [];
  const defaults = resolveStrategy({ matrix: { version: [6, 7, 8] } });
  results.push(
    defaults.ok && defaults.plan.failFast && defaults.plan.maxParallel === undefined
      ? { id: 'strategy/fail-fast-defaults-to-true', passed: true }
      : { id: 'strategy/fail-fast-defaults-to-true', passed: false, reason: JSON.stringify(defaults) },
  );
  const limited = resolveStrategy({ 'max-parallel': 2, 'fail-fast': false, matrix: { version: [6, 7, 8] } });
  const ok = limited.ok && limited.plan.maxParallel === 2 && !limited.plan.failFast && limited.plan.jobs.every((j) => j.strategy['max-parallel'] === 2);
  results.push(ok ? { id: 'strategy/max-parallel-2', passed: true } : { id: 'strategy/max-parallel-2', passed: false, reason: JSON.stringify(limited) });
  // "Handling failures": four jobs, fail-fast true; each knows its index and the total.
  const failFast = resolveStrategy({ 'fail-fast': true, matrix: { version: [6, 7, 8], experimental: [false], include: [{ version: 9, experimental: true }] } });
  const contexts = failFast.ok ? failFast.plan.jobs.map((j) => [j.strategy['job-index'], j.strategy['job-total'], j.strategy['fail-fast']]) : [];
  results.push(
    isDeepStrictEqual(contexts, [[0, 4, true], [1, 4, true], [2, 4, true], [3, 4, true]])
      ? { id: 'strategy/job-index-and-total', passed: true }
      : { id: 'strategy/job-index-and-total', passed: false, reason: JSON.stringify(contexts) },
  );
  return results;
}

export const matrixSuite: ConformanceSuite = {
  name: 'matrix',
  async run() {
    const results: CaseResult[] = CASES.map((c) => {
      const reason = check(c);
      return reason === undefined ? { id: c.id, passed: true } : { id: c.id, passed: false, reason };
    });
    return [...results, ...strategyCases()];
  },
};
