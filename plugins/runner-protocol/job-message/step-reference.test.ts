import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionReference } from './step-reference.js';

test('each kind of uses: becomes the reference the runner resolves', () => {
  assert.deepEqual(actionReference('actions/checkout@v4'), { type: 'repository', name: 'actions/checkout', ref: 'v4', repositoryType: 'GitHub' });
  assert.deepEqual(actionReference('o/r/.github/actions/node@7ac4fa2e45c8c4725a9ad44db4eb6b9682064260'), {
    type: 'repository',
    name: 'o/r',
    ref: '7ac4fa2e45c8c4725a9ad44db4eb6b9682064260',
    path: '.github/actions/node',
    repositoryType: 'GitHub',
  });
  assert.deepEqual(actionReference('./.github/actions/local'), { type: 'repository', repositoryType: 'self', path: './.github/actions/local' });
  assert.deepEqual(actionReference('$/.github/actions/shared'), { type: 'repository', repositoryType: 'selfRepository', path: '.github/actions/shared' });
  assert.deepEqual(actionReference('docker://alpine:3.20'), { type: 'containerRegistry', image: 'alpine:3.20' });
  assert.deepEqual(actionReference('Docker://ghcr.io/o/i@sha256:00'), { type: 'containerRegistry', image: 'ghcr.io/o/i@sha256:00' });
});

test('a reference the runner could not resolve is refused', () => {
  for (const uses of ['actions/checkout', 'checkout@v4', 'o/@v1', 'o/r@']) assert.throws(() => actionReference(uses), TypeError, uses);
});
