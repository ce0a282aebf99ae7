import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { Catalog } from './catalog.js';
import type { CommandDefinition } from './command.js';
import { loadPluginCommands } from './plugin-commands.js';
import { readPluginsFile } from './plugins-file.js';

/** A catalog of two built-ins whose server sides refuse to load (the kernel names none; builtins/plugin-commands.test.ts covers the real ones). */
const command = (name: string): CommandDefinition => ({ name, description: name, run: async () => 0 });
const refuse = () => Promise.reject(new Error('the server side was loaded'));
const noBackends = {};
const catalog: Catalog = {
  plugins: { blobs: refuse, engine: refuse },
  pluginCommands: { engine: async () => [command('status'), command('logs')] },
  stores: noBackends,
  notifiers: noBackends,
  blobs: noBackends,
  credentials: noBackends,
  snapshots: noBackends,
  remoteRepositories: refuse,
};

/** A plugins.toml (and any extra files) in a temp directory; returns the env pointing at it. */
function pluginsFile(t: TestContext, toml: string, files: Record<string, string> = {}): { SVC_PLUGINS: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-commands-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  writeFileSync(join(dir, 'plugins.toml'), toml);
  return { SVC_PLUGINS: join(dir, 'plugins.toml') };
}

const THIRD_PARTY = `export const plugin = {
  id: 'audit',
  apiVersion: 1,
  deps: {},
  init() {},
  commands: [{ name: 'audit list', description: 'list audit entries', run: async () => 7 }],
};
`;

describe('loadPluginCommands', () => {
  it("takes a third-party plugin's commands from its module and a built-in's from its CLI face (never its server side), in plugins.toml order", async (t) => {
    const env = pluginsFile(t, '[[plugin]]\nid = "blobs"\n[[plugin]]\npath = "./audit.mjs"\n[[plugin]]\nid = "engine"\n', { 'audit.mjs': THIRD_PARTY });
    const commands = await loadPluginCommands(env, catalog);
    assert.deepEqual(
      commands.map((c) => `${c.pluginId}: ${c.command.name}`),
      ['audit: audit list', 'engine: status', 'engine: logs'],
    );
  });

  it('refuses what the server refuses, with the same words', async (t) => {
    const unknown = pluginsFile(t, '[[plugin]]\nid = "nope"\n');
    await assert.rejects(loadPluginCommands(unknown, catalog), /plugins\.toml names built-in plugin 'nope', which does not exist \(built-in plugins: blobs, engine\)/);
    const twice = pluginsFile(t, '[[plugin]]\nid = "engine"\n[[plugin]]\nid = "engine"\n');
    await assert.rejects(loadPluginCommands(twice, catalog), /plugin id 'engine' is used twice: by built-in plugin 'engine' and by built-in plugin 'engine'/);
    const clash = pluginsFile(t, '[[plugin]]\npath = "./audit.mjs"\n[[plugin]]\npath = "./audit.mjs"\n', { 'audit.mjs': THIRD_PARTY });
    await assert.rejects(loadPluginCommands(clash, catalog), /plugin id 'audit' is used twice/);
    const broken = pluginsFile(t, '[[plugin]]\npath = "./missing.mjs"\n');
    await assert.rejects(loadPluginCommands(broken, catalog), /plugin file '.*missing\.mjs' could not be loaded/);
    const invalid = pluginsFile(t, '[backends]\nstore = "mysql"\n[[plugin]]\nid = "engine"\n');
    const expected = (() => {
      try {
        readPluginsFile(invalid.SVC_PLUGINS);
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    await assert.rejects(loadPluginCommands(invalid, catalog), (error: Error) => error.message === expected && /store must be one of/.test(expected));
  });
});
