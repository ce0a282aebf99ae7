import { pathToFileURL } from 'node:url';
import { PluginError } from './errors.js';
import type { PluginSource } from './plugins-file.js';
import { PLUGIN_API_VERSION, type PluginDefinition } from './plugin.js';
import { isDependency } from './service-ref.js';

export type ModuleImporter = () => Promise<Record<string, unknown>>;

export interface LoadedPlugin {
  readonly source: PluginSource;
  readonly definition: PluginDefinition;
}

export function describeSource(source: PluginSource): string {
  switch (source.kind) {
    case 'builtin':
      return `built-in plugin '${source.id}'`;
    case 'package':
      return `plugin package '${source.name}'`;
    case 'path':
      return `plugin file '${source.path}'`;
  }
}

/** The importer of built-in plugin `id`; an id the catalog does not know is refused, naming the known ones. */
export function builtinImporter(id: string, builtins: Readonly<Record<string, ModuleImporter>>): ModuleImporter {
  const importer = builtins[id];
  if (!importer) {
    const known = Object.keys(builtins).sort().join(', ');
    throw new PluginError(`plugins.toml names built-in plugin '${id}', which does not exist (built-in plugins: ${known})`);
  }
  return importer;
}

async function importSource(source: PluginSource, builtins: Readonly<Record<string, ModuleImporter>>): Promise<Record<string, unknown>> {
  switch (source.kind) {
    case 'builtin':
      return builtinImporter(source.id, builtins)();
    case 'package':
      return (await import(source.name)) as Record<string, unknown>;
    case 'path':
      return (await import(pathToFileURL(source.path).href)) as Record<string, unknown>;
  }
}

/** Checks the shape of a module's `plugin` export; the error names the plugin and what is wrong. */
export function validateDefinition(value: unknown, where: string): PluginDefinition {
  if (typeof value !== 'object' || value === null) {
    throw new PluginError(`${where} does not export a 'plugin' object (export const plugin = definePlugin({...}))`);
  }
  const def = value as Partial<PluginDefinition>;
  if (typeof def.id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(def.id)) {
    throw new PluginError(`${where} has an invalid id ${JSON.stringify(def.id)}; use lower case letters, digits and dashes`);
  }
  const name = `plugin '${def.id}' (${where})`;
  if (def.apiVersion !== PLUGIN_API_VERSION) {
    throw new PluginError(
      `${name} targets plugin API version ${JSON.stringify(def.apiVersion)}, but this svc implements version ${PLUGIN_API_VERSION}; ` +
        'upgrade or downgrade the plugin to one built for this svc',
    );
  }
  if (typeof def.init !== 'function') throw new PluginError(`${name} has no init function`);
  if (typeof def.deps !== 'object' || def.deps === null) throw new PluginError(`${name} has no deps map (use deps: {} for none)`);
  for (const [key, dep] of Object.entries(def.deps)) {
    if (!isDependency(dep)) throw new PluginError(`${name}: dependency '${key}' is not a service ref or extension point`);
  }
  for (const dep of def.provides ?? []) {
    if (!isDependency(dep)) throw new PluginError(`${name}: an entry of 'provides' is not a service ref or extension point`);
  }
  return def as PluginDefinition;
}

/** Imports one plugin's module and checks its definition; an error names the plugin. */
export async function loadPlugin(source: PluginSource, builtins: Readonly<Record<string, ModuleImporter>>): Promise<PluginDefinition> {
  const where = describeSource(source);
  let module: Record<string, unknown>;
  try {
    module = await importSource(source, builtins);
  } catch (error) {
    if (error instanceof PluginError) throw error;
    throw new PluginError(`${where} could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  return validateDefinition(module.plugin, where);
}

export async function loadPlugins(sources: readonly PluginSource[], builtins: Readonly<Record<string, ModuleImporter>>): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    const definition = await loadPlugin(source, builtins);
    const where = describeSource(source);
    const previous = seen.get(definition.id);
    if (previous !== undefined) throw new PluginError(`plugin id '${definition.id}' is used twice: by ${previous} and by ${where}`);
    seen.set(definition.id, where);
    loaded.push({ source, definition });
  }
  return loaded;
}
