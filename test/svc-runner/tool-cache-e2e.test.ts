/**
 * A tool cache shared by runners, through `svc serve` and the `svc-runner` CLI: two runner roots
 * started with the same `RUNNER_TOOL_CACHE` (what the built-in pool does for its guests). A
 * JavaScript action that uses the cache as setup-node uses @actions/tool-cache
 * (`<cache>/<tool>/<version>/<arch>` and `<arch>.complete`) installs a tool in the first job and
 * finds it in the second, on the other runner; `runner.tool_cache` and the steps'
 * `RUNNER_TOOL_CACHE` name the shared directory, which the first job creates.
 */
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { e2eHost, logLines, pathNodeMajor, runOnce, runView, writeWorkspace } from './fixtures/e2e-harness.js';
import { configure, tempDir } from './listener-harness.js';

/** The find-or-install half of a setup action, laid out as @actions/tool-cache lays it out. */
const SETUP_FAKE_TOOL = `const fs = require('fs');
const path = require('path');
const dir = path.join(process.env.RUNNER_TOOL_CACHE, 'fake-tool', '1.2.3', process.arch);
if (fs.existsSync(dir + '.complete')) {
  console.log('found fake-tool 1.2.3 in the tool cache at ' + dir);
} else {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'bin', 'fake-tool'), '#!/bin/sh\\necho "fake-tool 1.2.3 from $0"\\n', { mode: 0o755 });
  fs.writeFileSync(dir + '.complete', '');
  console.log('installed fake-tool 1.2.3 into the tool cache at ' + dir);
}
fs.appendFileSync(process.env.GITHUB_PATH, path.join(dir, 'bin') + '\\n');
`;

function workflow(): string {
  const steps = `    steps:
      - uses: ./.github/actions/setup-fake-tool
      - run: |
          fake-tool
          echo "tool_cache=\${{ runner.tool_cache }} env=$RUNNER_TOOL_CACHE"
`;
  return `name: tool-cache
on: push
jobs:
  first:
    runs-on: [self-hosted, linux]
${steps}  second:
    needs: first
    runs-on: [self-hosted, linux]
${steps}`;
}

it('a tool one job installs into RUNNER_TOOL_CACHE is found by a later job on another runner root', async (t) => {
  const major = pathNodeMajor();
  if (major === undefined) {
    t.skip('the runner needs node 20 or 24 on PATH for this test');
    return;
  }
  const { h, root: first } = await e2eHost(t, 'e2e-tools-a');
  const second = tempDir(t, 'svc-e2e-root-');
  await configure(t, h, second, 'e2e-tools-b');
  const action = {
    '.github/actions/setup-fake-tool/action.yml': `name: setup-fake-tool\nruns:\n  using: node${major}\n  main: main.js\n`,
    '.github/actions/setup-fake-tool/main.js': SETUP_FAKE_TOOL,
  };
  await writeWorkspace(first, action);
  await writeWorkspace(second, action);
  const cache = join(tempDir(t, 'svc-e2e-shared-'), 'tools');
  const entry = join(cache, 'fake-tool', '1.2.3', process.arch);

  const run = await createRun(h, workflow());
  assert.match(await runOnce(t, first, { RUNNER_TOOL_CACHE: cache }), /Job first completed with result: Succeeded/);
  assert.ok((await stat(`${entry}.complete`)).isFile(), 'the first job made the cache directory and its entry');
  assert.match(await runOnce(t, second, { RUNNER_TOOL_CACHE: cache }), /Job second completed with result: Succeeded/);

  const view = await runView(h, run.id);
  assert.deepEqual([view.status, view.conclusion], ['success', 'success']);
  const firstLines = await logLines(h, run.id, 'first');
  const secondLines = await logLines(h, run.id, 'second');
  for (const [lines, expected] of [
    [firstLines, `installed fake-tool 1.2.3 into the tool cache at ${entry}`],
    [secondLines, `found fake-tool 1.2.3 in the tool cache at ${entry}`],
    [firstLines, `fake-tool 1.2.3 from ${join(entry, 'bin', 'fake-tool')}`],
    [secondLines, `fake-tool 1.2.3 from ${join(entry, 'bin', 'fake-tool')}`],
    [firstLines, `tool_cache=${cache} env=${cache}`],
    [secondLines, `tool_cache=${cache} env=${cache}`],
  ] as const) {
    assert.ok(lines.includes(expected), `the log has '${expected}':\n${lines.join('\n')}`);
  }
  assert.ok(!secondLines.some((line) => line.startsWith('installed fake-tool')), 'the second job installs nothing');
});
