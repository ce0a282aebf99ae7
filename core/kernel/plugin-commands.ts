import { join } from 'node:path';
import type { Catalog } from './catalog.js';
import type { CommandDefinition } from './command.js';
import type { Env } from './config/env-config.js';
import { packageInfo } from './package-info.js';
import { loadPlugins } from './plugin-loader.js';
import { readPluginsFile } from './plugins-file.js';

export interface PluginCommand {
  readonly pluginId: string;
  readonly command: CommandDefinition;
}

/** The CLI subcommands of the enabled plugins (modules are imported; nothing is initialised). */
export async function loadPluginCommands(env: Env, catalog: Catalog): Promise<PluginCommand[]> {
  const file = readPluginsFile(env.SVC_PLUGINS || join(packageInfo().root, 'plugins.toml'));
  const plugins = await loadPlugins(file.plugins, catalog.plugins);
  return plugins.flatMap(({ definition }) => (definition.commands ?? []).map((command) => ({ pluginId: definition.id, command })));
}
