/**
 * The node a runner configured with `--no-externals` falls back to, through `svc serve` and the
 * `svc-runner` CLI: after a step puts another node first on `$GITHUB_PATH` (what setup-node
 * does), a JavaScript action and its post stage still run on the node of the runner's own PATH;
 * a runtime nobody has fails with SPEC's `bundled node<N> is missing`, explained by
 * `externals/node<N>.missing` when the runner root has one (the built-in pool's contract) and
 * with the `--no-externals` advice otherwise.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { e2eHost, logLines, pathNodeMajor, runOnce, runView, stepsOf, writeWorkspace } from './fixtures/e2e-harness.js';

function action(using: string, name: string, post: boolean): Record<string, string> {
  return {
    [`.github/actions/${name}/action.yml`]: `name: ${name}\nruns:\n  using: ${using}\n  main: main.js\n${post ? '  post: post.js\n' : ''}`,
    [`.github/actions/${name}/main.js`]: `console.log('${name} main on node ' + process.versions.node.split('.')[0]);\n`,
    [`.github/actions/${name}/post.js`]: `console.log('${name} post on node ' + process.versions.node.split('.')[0]);\n`,
  };
}

function workflow(present: string, missing: string): string {
  return `name: node-fallback
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - name: Another node first on GITHUB_PATH
        run: |
          mkdir -p "$RUNNER_TEMP/other-node"
          printf '#!/bin/sh\\necho v18.19.0\\n' > "$RUNNER_TEMP/other-node/node"
          chmod +x "$RUNNER_TEMP/other-node/node"
          echo "$RUNNER_TEMP/other-node" >> "$GITHUB_PATH"
      - name: Steps see it
        run: echo "step node $(node --version)"
      - name: Present runtime
        uses: ./.github/actions/present
      - name: Missing runtime
        continue-on-error: true
        uses: ./.github/actions/missing
      - name: The runner root explains it
        run: echo "  This pool offers ${present} only.  " > "\${{ runner.workspace }}/../../externals/${missing}.missing"
      - name: Missing runtime, explained
        continue-on-error: true
        uses: ./.github/actions/missing
`;
}

it("JavaScript actions run on the runner's node after a step puts another node on GITHUB_PATH; a missing runtime says why", async (t) => {
  const major = pathNodeMajor();
  if (major === undefined) {
    t.skip('the runner needs node 20 or 24 on PATH for this test');
    return;
  }
  const present = `node${major}`;
  const missing = major === '20' ? 'node24' : 'node20';
  const { h, root } = await e2eHost(t, 'e2e-node-fallback');
  await writeWorkspace(root, { ...action(present, 'present', true), ...action(missing, 'missing', false) });
  const run = await createRun(h, workflow(present, missing));
  assert.match(await runOnce(t, root), /Job build completed with result: Succeeded/);
  const view = await runView(h, run.id);
  const lines = await logLines(h, run.id, 'build');
  assert.deepEqual(
    stepsOf(view, 'build').filter(([name]) => /runtime|Present/.test(name)),
    [
      ['Present runtime', 'success'],
      ['Missing runtime', 'success'],
      ['Missing runtime, explained', 'success'],
      ['Post Present runtime', 'success'],
    ],
    lines.join('\n'),
  );
  for (const expected of ['step node v18.19.0', `present main on node ${major}`, `present post on node ${major}`]) {
    assert.ok(lines.includes(expected), `the log has '${expected}':\n${lines.join('\n')}`);
  }
  const errors = lines.filter((line) => line.startsWith(`##[error]bundled ${missing} is missing: `));
  assert.equal(errors.length, 2, lines.join('\n'));
  assert.match(errors[0] ?? '', /the runner was configured with --no-externals\?.*configure the runner again without --no-externals\.$/);
  assert.equal(errors[1], `##[error]bundled ${missing} is missing: This pool offers ${present} only.`);
  assert.ok(!lines.some((line) => line.includes('missing main on node')), 'no node runs the missing runtime');
});
