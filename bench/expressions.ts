// `node --import tsx bench/expressions.ts`: evaluations per second of a typical job `if:` with
// the parse served from the cache, against parsing every time (the baseline), and with plain
// contexts converted per evaluation instead of prepared once. Prints figures; asserts nothing.
// BENCH_ITERATIONS sets the evaluations per measurement (default 200000).
import {
  createParseCache,
  evaluateExpression,
  prepareContexts,
  type ExpressionContexts,
  type ExpressionObject,
} from '../core/workflow/expressions/index.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200_000);
const EXPRESSION = "github.event_name == 'push' && contains(github.ref, 'main')";

function pushPayload(): ExpressionObject {
  const commits = Array.from({ length: 20 }, (_, i) => ({
    id: `c0ffee${i}`.padEnd(40, '0'),
    message: `commit ${i}`,
    timestamp: '2026-01-01T00:00:00Z',
    author: { name: 'A Person', email: 'a@example.com', username: 'a' },
    added: [`src/file-${i}.ts`],
    removed: [],
    modified: ['README.md'],
  }));
  return {
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: 'f'.repeat(40),
    repository: { id: 1, name: 'repo', full_name: 'owner/repo', private: false, default_branch: 'main' },
    pusher: { name: 'a', email: 'a@example.com' },
    commits,
    head_commit: commits[commits.length - 1] ?? null,
  };
}

const contexts: ExpressionContexts = {
  github: {
    event_name: 'push',
    ref: 'refs/heads/main',
    sha: 'f'.repeat(40),
    repository: 'owner/repo',
    run_id: '42',
    event: pushPayload(),
  },
  vars: { DEPLOY: 'yes' },
  inputs: {},
};

function measure(label: string, evaluate: () => void): number {
  for (let i = 0; i < Math.min(ITERATIONS, 20_000); i++) evaluate(); // warm up the JIT
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) evaluate();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = ITERATIONS / seconds;
  const micros = (seconds * 1e6) / ITERATIONS;
  console.log(
    `${label.padEnd(44)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} evals/s ${micros.toFixed(2).padStart(9)} µs/eval`,
  );
  return micros;
}

console.log(`expression: ${EXPRESSION}`);
console.log(`iterations: ${ITERATIONS}, node ${process.version}`);

const prepared = prepareContexts(contexts);
const cache = createParseCache();
const cached = measure('parse cached, contexts prepared', () => {
  evaluateExpression(EXPRESSION, prepared, { cache });
});
const uncached = measure('parse every time (baseline), contexts prepared', () => {
  evaluateExpression(EXPRESSION, prepared, { cache: createParseCache(1) });
});
const plain = measure('parse cached, plain contexts converted per eval', () => {
  evaluateExpression(EXPRESSION, contexts, { cache });
});

console.log(`cached parse is ${(uncached / cached).toFixed(1)}x faster than parsing every time`);
console.log(`prepared contexts are ${(plain / cached).toFixed(1)}x faster than plain contexts`);
console.log(`parse cache: ${cache.size} entries, ${cache.hits} hits, ${cache.misses} misses`);
