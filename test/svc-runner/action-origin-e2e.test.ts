/**
 * `github.action_repository` and `github.action_ref` through `svc serve` and the `svc-runner`
 * CLI, as the official runner sets them: a composite's nested steps see the composite's in their
 * `env:`; a nested `uses:` sees its own in `with:` and in `GITHUB_ACTION_REPOSITORY` /
 * `GITHUB_ACTION_REF`; a `run:` step's own script and variables have them empty (in a composite
 * as in the workflow). One composite comes from the server's action mirror, one is local.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { mirrorDir, mirrorRepository } from './fixtures/actions-mirror.js';
import { e2eHost, logLines, pathNodeMajor, runOnce, runView, writeWorkspace } from './fixtures/e2e-harness.js';

const SHOW_ENV = `env:
        FROM_ENV: \${{ github.action_repository }}@\${{ github.action_ref }}`;

const WORKFLOW = `name: origin
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - uses: acme/greet@v1
      - uses: ./.github/actions/local
      - run: echo "inline run=[\${{ github.action_repository }}] var=[$GITHUB_ACTION_REPOSITORY@$GITHUB_ACTION_REF]"
`;

it('a composite action gives its steps github.action_repository/action_ref as the runner does (remote and local)', async (t) => {
  const major = pathNodeMajor();
  if (major === undefined) {
    t.skip('the runner needs node 20 or 24 on PATH for this test');
    return;
  }
  const mirror = mirrorDir(t);
  mirrorRepository(mirror, 'acme/greet', {
    'action.yml': `name: greet
runs:
  using: composite
  steps:
    - ${SHOW_ENV}
      run: echo "greet env=$FROM_ENV var=[$GITHUB_ACTION_REPOSITORY@$GITHUB_ACTION_REF] run=[\${{ github.action_repository }}]"
      shell: bash
    - uses: acme/tools/js@v2
      with:
        who: \${{ github.action_repository }}@\${{ github.action_ref }}
`,
  });
  mirrorRepository(
    mirror,
    'acme/tools',
    {
      'js/action.yml': `name: js\ninputs:\n  who:\n    required: true\nruns:\n  using: node${major}\n  main: main.js\n`,
      'js/main.js': "console.log('js var=' + process.env.GITHUB_ACTION_REPOSITORY + '@' + process.env.GITHUB_ACTION_REF + ' who=' + process.env.INPUT_WHO);\n",
    },
    'v2',
  );
  const { h, root } = await e2eHost(t, 'e2e-origin', { env: { SVC_ACTIONS_MIRROR_DIR: mirror }, plugins: ['blobs'] });
  await writeWorkspace(root, {
    '.github/actions/local/action.yml': `name: local
runs:
  using: composite
  steps:
    - ${SHOW_ENV}
      run: echo "local env=$FROM_ENV"
      shell: bash
    - uses: acme/tools/js@v2
      with:
        who: local-\${{ github.action_ref }}
`,
  });
  const run = await createRun(h, WORKFLOW);
  assert.match(await runOnce(t, root), /Job build completed with result: Succeeded/);
  const view = await runView(h, run.id);
  const lines = await logLines(h, run.id, 'build');
  assert.deepEqual([view.status, view.conclusion], ['success', 'success'], lines.join('\n'));
  for (const expected of [
    'greet env=acme/greet@v1 var=[@] run=[]',
    'js var=acme/tools@v2 who=acme/tools@v2',
    'local env=@',
    'js var=acme/tools@v2 who=local-v2',
    'inline run=[] var=[@]',
  ]) {
    assert.ok(lines.includes(expected), `the log has '${expected}':\n${lines.join('\n')}`);
  }
});
