import { join } from 'node:path';
import type { Catalog } from './catalog.js';
import type { CommandDefinition } from './command.js';
import type { Env } from './config/env-config.js';
import { PluginError } from './errors.js';
import { packageInfo } from './package-info.js';
import { builtinImporter, describeSource, loadPlugin } from './plugin-loader.js';
import type { PluginSource } from './plugins-file-schema.js';
import { readPluginsFileQuick } from './plugins-file-quick.js';

export interface PluginCommand {
  readonly pluginId: string;
  readonly command: CommandDefinition;
}

/**
 * The CLI subcommands of the enabled plugins, in plugins.toml order; nothing is initialised.
 * Every `svc` invocation pays for this, so it loads as little as it can: a built-in plugin's
 * commands come from its CLI face in the catalog (its server side is never imported), a
 * third-party plugin's from its module's `plugin.commands`, as the server loads it. The
 * modules are imported in parallel; the first problem in file order is the one reported.
 */
export async function loadPluginCommands(env: Env, catalog: Catalog): Promise<PluginCommand[]> {
  const file = await readPluginsFileQuick(env.SVC_PLUGINS || join(packageInfo().root, 'plugins.toml'));
  const settled = await Promise.allSettled(file.plugins.map((source) => commandsOf(source, catalog)));
  const commands: PluginCommand[] = [];
  const seen = new Map<string, string>();
  settled.forEach((result, index) => {
    if (result.status === 'rejected') throw result.reason;
    const { id, list } = result.value;
    const where = describeSource(file.plugins[index] as PluginSource);
    const previous = seen.get(id);
    if (previous !== undefined) throw new PluginError(`plugin id '${id}' is used twice: by ${previous} and by ${where}`);
    seen.set(id, where);
    for (const command of list) commands.push({ pluginId: id, command });
  });
  return commands;
}

async function commandsOf(source: PluginSource, catalog: Catalog): Promise<{ id: string; list: readonly CommandDefinition[] }> {
  if (source.kind === 'builtin') {
    builtinImporter(source.id, catalog.plugins); // refuses an unknown id as the server does
    const commands = catalog.pluginCommands[source.id];
    return { id: source.id, list: commands === undefined ? [] : await commands() };
  }
  const definition = await loadPlugin(source, catalog.plugins);
  return { id: definition.id, list: definition.commands ?? [] };
}
