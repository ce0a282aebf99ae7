import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PluginError } from './errors.js';
import { orderPlugins } from './plugin-graph.js';
import type { LoadedPlugin } from './plugin-loader.js';
import { definePlugin, type DependencyMap } from './plugin.js';
import { createExtensionPoint, createServiceRef, optional, type Dependency } from './service-ref.js';

const core = createServiceRef<string>({ id: 'core.thing' });
const a = createServiceRef<string>({ id: 'a.service' });
const b = createServiceRef<string>({ id: 'b.service' });
const c = createExtensionPoint<string>({ id: 'c.extension' });

function plugin(id: string, deps: DependencyMap, provides: Dependency<unknown>[] = []): LoadedPlugin {
  return { source: { kind: 'builtin', id }, definition: definePlugin({ id, apiVersion: 1, deps, provides, init: () => {} }) };
}

const order = (plugins: LoadedPlugin[]) => orderPlugins(plugins, new Set([core.id])).map((p) => p.definition.id);

describe('plugin ordering', () => {
  it('keeps the plugins.toml order when nothing depends on anything', () => {
    assert.deepEqual(order([plugin('x', {}), plugin('y', { core }), plugin('z', {})]), ['x', 'y', 'z']);
  });

  it('initialises providers before their users, whatever the listed order', () => {
    assert.deepEqual(order([plugin('user', { b, c }), plugin('b', { a }, [b]), plugin('a', {}, [a]), plugin('c', {}, [c])]), ['a', 'b', 'c', 'user']);
  });

  it('refuses a dependency no enabled plugin provides, naming plugin and service', () => {
    assert.throws(
      () => order([plugin('webhooks', { store: b })]),
      (error: unknown) => error instanceof PluginError && /plugin 'webhooks' needs service 'b.service' \(as 'store'\), which no enabled plugin provides/.test(error.message),
    );
  });

  it('skips an optional dependency nobody provides, and orders after its provider when there is one', () => {
    assert.deepEqual(order([plugin('runner', { secrets: optional(b) })]), ['runner']);
    assert.deepEqual(order([plugin('runner', { secrets: optional(b) }), plugin('b', {}, [b])]), ['b', 'runner']);
  });

  it('refuses a cycle and prints it', () => {
    assert.throws(
      () => order([plugin('a', { b }, [a]), plugin('b', { a }, [b])]),
      (error: unknown) => error instanceof PluginError && /plugins form a dependency cycle: a -> b -> a/.test(error.message),
    );
  });

  it('refuses two providers of one service and a plugin providing a kernel service', () => {
    assert.throws(() => order([plugin('p', {}, [a]), plugin('q', {}, [a])]), /'a.service' is provided by both plugin 'p' and plugin 'q'/);
    assert.throws(() => order([plugin('p', {}, [core])]), /provides 'core.thing', which the kernel provides/);
  });

  it('lets a plugin depend on what it provides itself without a cycle', () => {
    assert.deepEqual(order([plugin('self', { a }, [a])]), ['self']);
  });
});
