import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPlugins } from './plugin-loader.js';

describe('third-party plugins by package name', () => {
  it('resolves an installed package and checks its plugin export', async () => {
    // kysely is installed but is no plugin: resolution works, the shape check names it.
    await assert.rejects(loadPlugins([{ kind: 'package', name: 'kysely' }], {}), /plugin package 'kysely' does not export a 'plugin' object/);
  });
});
