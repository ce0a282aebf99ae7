import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { loadPluginCommands, type Catalog, type CommandDefinition } from '../core/kernel/cli/index.js';
import { builtinPluginCommands, builtinPlugins, defaultCatalog } from './index.js';

const summary = (commands: readonly CommandDefinition[]) =>
  commands.map(({ name, description, arguments: args, options }) => ({ name, description, args, options }));

/** A plugins.toml (and any extra files) in a temp directory; returns the env pointing at it. */
function pluginsFile(t: TestContext, toml: string, files: Record<string, string> = {}): { SVC_PLUGINS: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-commands-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, 'plugins.toml'), toml);
  return { SVC_PLUGINS: join(dir, 'plugins.toml') };
}

describe('the built-ins catalog', () => {
  it('names each plugin by the id its definition declares', async () => {
    for (const [id, entry] of Object.entries(builtinPlugins)) {
      const { plugin } = (await entry.server()) as { plugin: { id: string } };
      assert.equal(plugin.id, id);
    }
  });

  it("gives each built-in plugin's commands from its CLI face, the same its definition declares", async () => {
    for (const [id, importer] of Object.entries(defaultCatalog.plugins)) {
      const { plugin } = (await importer()) as { plugin: { commands?: readonly CommandDefinition[] } };
      const face = builtinPluginCommands[id];
      assert.deepEqual(summary(face === undefined ? [] : await face()), summary(plugin.commands ?? []), id);
    }
  });

  it("lets loadPluginCommands list built-in commands without loading any plugin's server side", async (t) => {
    const refuse = () => Promise.reject(new Error('the server side was loaded'));
    const catalog: Catalog = { ...defaultCatalog, plugins: Object.fromEntries(Object.keys(defaultCatalog.plugins).map((id) => [id, refuse])) };
    const env = pluginsFile(t, '[[plugin]]\nid = "blobs"\n[[plugin]]\nid = "engine"\n[[plugin]]\nid = "local-runs"\n');
    const commands = await loadPluginCommands(env, catalog);
    assert.deepEqual(
      commands.map((c) => `${c.pluginId}: ${c.command.name}`),
      ['engine: status', 'engine: logs', 'engine: rerun', 'engine: approve', 'local-runs: run'],
    );
  });
});
