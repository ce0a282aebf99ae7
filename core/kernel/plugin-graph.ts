import { PluginError } from './errors.js';
import { isOptional } from './service-ref.js';
import type { LoadedPlugin } from './plugin-loader.js';

/**
 * Orders plugins so each is initialised after the plugins providing what it needs; ties keep
 * the order of plugins.toml. Refuses a dependency nobody provides (unless it is optional) and any
 * cycle, naming them.
 */
export function orderPlugins(plugins: readonly LoadedPlugin[], kernelProvided: ReadonlySet<string>): LoadedPlugin[] {
  const providerOf = new Map<string, string>();
  for (const { definition } of plugins) {
    for (const dep of definition.provides ?? []) {
      if (kernelProvided.has(dep.id)) throw new PluginError(`plugin '${definition.id}' declares it provides '${dep.id}', which the kernel provides`);
      const other = providerOf.get(dep.id);
      if (other !== undefined) throw new PluginError(`'${dep.id}' is provided by both plugin '${other}' and plugin '${definition.id}'`);
      providerOf.set(dep.id, definition.id);
    }
  }
  const byId = new Map(plugins.map((p) => [p.definition.id, p]));
  const edges = new Map<string, string[]>();
  for (const { definition } of plugins) {
    const needs: string[] = [];
    for (const [key, dep] of Object.entries(definition.deps)) {
      if (kernelProvided.has(dep.id)) continue;
      const provider = providerOf.get(dep.id);
      if (provider === undefined) {
        if (isOptional(dep)) continue;
        throw new PluginError(
          `plugin '${definition.id}' needs ${dep.kind === 'service' ? 'service' : 'extension point'} '${dep.id}' (as '${key}'), which no enabled plugin provides; enable the plugin that provides it in plugins.toml`,
        );
      }
      if (provider !== definition.id) needs.push(provider);
    }
    edges.set(definition.id, needs);
  }

  const ordered: LoadedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    const mark = state.get(id);
    if (mark === 'done') return;
    if (mark === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      throw new PluginError(`plugins form a dependency cycle: ${cycle.join(' -> ')}`);
    }
    state.set(id, 'visiting');
    for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
    state.set(id, 'done');
    const plugin = byId.get(id);
    if (plugin) ordered.push(plugin);
  };
  for (const { definition } of plugins) visit(definition.id, []);
  return ordered;
}
