import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PluginError } from './errors.js';
import { loadPlugins, validateDefinition } from './plugin-loader.js';

const ok = { id: 'good', apiVersion: 1, deps: {}, init: () => {} };

async function refusal(builtins: Record<string, () => Promise<Record<string, unknown>>>, ids: string[]): Promise<string> {
  try {
    await loadPlugins(ids.map((id) => ({ kind: 'builtin' as const, id })), builtins);
  } catch (error) {
    assert.ok(error instanceof PluginError, `expected a PluginError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected loading to be refused');
}

describe('plugin loader', () => {
  it('loads definitions in plugins.toml order', async () => {
    const loaded = await loadPlugins(
      [
        { kind: 'builtin', id: 'one' },
        { kind: 'builtin', id: 'two' },
      ],
      { one: async () => ({ plugin: { ...ok, id: 'one' } }), two: async () => ({ plugin: { ...ok, id: 'two' } }) },
    );
    assert.deepEqual(loaded.map((p) => p.definition.id), ['one', 'two']);
  });

  it('refuses a wrong plugin API version, naming the plugin and both versions', async () => {
    const message = await refusal({ old: async () => ({ plugin: { ...ok, id: 'old', apiVersion: 2 } }) }, ['old']);
    assert.match(message, /plugin 'old' .* targets plugin API version 2, but this svc implements version 1/);
  });

  it('refuses a plugin whose module throws while loading, naming it', async () => {
    const message = await refusal({ broken: async () => { throw new SyntaxError('Unexpected token }'); } }, ['broken']);
    assert.match(message, /built-in plugin 'broken' could not be loaded: Unexpected token }/);
  });

  it('refuses a module without a plugin export, and malformed definitions', async () => {
    assert.match(await refusal({ empty: async () => ({}) }, ['empty']), /does not export a 'plugin' object/);
    assert.throws(() => validateDefinition({ ...ok, id: 'Bad Id' }, 'x'), /invalid id "Bad Id"/);
    assert.throws(() => validateDefinition({ ...ok, init: undefined }, 'x'), /plugin 'good' \(x\) has no init function/);
    assert.throws(() => validateDefinition({ ...ok, deps: { db: 'core.database' } }, 'x'), /dependency 'db' is not a service ref/);
  });

  it('refuses an unknown built-in, listing the known ones', async () => {
    assert.match(await refusal({ a: async () => ({ plugin: ok }) }, ['nope']), /built-in plugin 'nope', which does not exist \(built-in plugins: a\)/);
  });

  it('refuses one id used twice', async () => {
    const builtins = { a: async () => ({ plugin: ok }), b: async () => ({ plugin: ok }) };
    assert.match(await refusal(builtins, ['a', 'b']), /plugin id 'good' is used twice/);
  });

  it('loads a third-party package by name and reports a missing one', async () => {
    await assert.rejects(loadPlugins([{ kind: 'package', name: 'svc-plugin-that-is-not-installed' }], {}), /plugin package 'svc-plugin-that-is-not-installed' could not be loaded/);
  });
});
