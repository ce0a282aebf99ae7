import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRemoteUses } from './action-refs.js';
import { admittedRemotes, MANIFEST_BUDGET } from './admission.js';

const composite = (...uses: string[]) => `name: c\ndescription: d\nruns:\n  using: composite\n  steps:\n${uses.map((u) => `    - uses: ${u}\n`).join('')}`;

describe('action admission', () => {
  it('admits the remotes the steps declare, with or without a sub-directory, and nothing else', async () => {
    const admitted = await admittedRemotes(['actions/checkout@v4', 'acme/tools/lint@main', './local', 'docker://alpine:3', '$/x'], {});
    assert.deepEqual([...admitted].sort(), ['acme/tools@main', 'actions/checkout@v4']);
  });

  it('admits remotes nested in readable local composites, and in admitted remote composites', async () => {
    const local: Record<string, string> = { 'ci/setup/action.yml': composite('acme/node@v2', './ci/inner') };
    local['ci/inner/action.yaml'] = composite('acme/deep@v1');
    const remote: Record<string, string> = { 'acme/node@v2:action.yml': composite('acme/cache@v3') };
    const admitted = await admittedRemotes(['./ci/setup'], {
      local: async (path) => local[path],
      remote: async (action, path) => remote[`${action.nameWithOwner}@${action.ref}:${path}`],
    });
    assert.deepEqual([...admitted].sort(), ['acme/cache@v3', 'acme/deep@v1', 'acme/node@v2']);
  });

  it('leaves the remotes of an unreadable or invalid manifest denied', async () => {
    const failing = await admittedRemotes(['./ci/setup'], { local: () => Promise.reject(new Error('no snapshot')) });
    assert.equal(failing.size, 0);
    const invalid = await admittedRemotes(['./ci/setup'], { local: async () => 'runs: [not a manifest' });
    assert.equal(invalid.size, 0);
    const noSnapshot = await admittedRemotes(['./ci/setup'], {});
    assert.equal(noSnapshot.size, 0);
  });

  it('stops reading manifests when the traversal budget is spent', async () => {
    // ./a0 → ./a1 → ... each nesting one remote; manifests past the budget are not read.
    const admitted = await admittedRemotes(['./a0'], {
      local: async (path) => {
        const n = Number(/^a(\d+)\//.exec(path)?.[1]);
        return composite(`acme/r${n}@v1`, `./a${n + 1}`);
      },
    });
    assert.equal(admitted.size, MANIFEST_BUDGET);
    assert.ok(!admitted.has(`acme/r${MANIFEST_BUDGET}@v1`));
  });

  it('parses only plain remote references', () => {
    assert.deepEqual(parseRemoteUses('acme/tools/lint/x@v1'), { nameWithOwner: 'acme/tools', ref: 'v1', path: 'lint/x' });
    for (const bad of ['acme@v1', 'acme/tools', './x', 'docker://a', '../x/y@v1', 'acme/${{ matrix.x }}@v1', 'a b/c@v1']) assert.equal(parseRemoteUses(bad), undefined, bad);
  });
});
