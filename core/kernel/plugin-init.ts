import type { Migration, Migrator } from '../ports/index.js';
import type { Catalog } from './catalog.js';
import type { ServiceContainer } from './container.js';
import { KERNEL_SERVICE_IDS } from './core-services.js';
import { PluginError } from './errors.js';
import type { NamedReadinessCheck, NamedReadinessNote } from './host-routes.js';
import type { Logger } from './logger.js';
import { orderPlugins } from './plugin-graph.js';
import { loadPlugins } from './plugin-loader.js';
import type { PluginEnvironment, RouteGroup, RouteSurface, Worker } from './plugin.js';
import type { PluginSource } from './plugins-file.js';
import { isOptional, type Dependency } from './service-ref.js';

export interface InitializedPlugins {
  readonly order: readonly string[];
  readonly routes: readonly RouteGroup[];
  readonly workers: readonly Worker[];
  readonly readinessChecks: readonly NamedReadinessCheck[];
  readonly readinessNotes: readonly NamedReadinessNote[];
}

export interface InitPluginsOptions {
  readonly sources: readonly PluginSource[];
  readonly catalog: Catalog;
  readonly container: ServiceContainer;
  readonly migrator: Migrator;
  readonly logger: Logger;
}

/** Loads, orders and initialises the plugins; a plugin's migrations run right after its init. */
export async function initPlugins(options: InitPluginsOptions): Promise<InitializedPlugins> {
  const { container, logger } = options;
  const loaded = await loadPlugins(options.sources, options.catalog.plugins);
  const ordered = orderPlugins(loaded, KERNEL_SERVICE_IDS);
  const routes: RouteGroup[] = [];
  const workers: Worker[] = [];
  const readinessChecks: NamedReadinessCheck[] = [];
  const readinessNotes: NamedReadinessNote[] = [];

  for (const { definition } of ordered) {
    const id = definition.id;
    const declared = new Set((definition.provides ?? []).map((d) => d.id));
    const provided = new Set<string>();
    const migrations: Migration[] = [];
    const provide = <T>(dep: Dependency<T>, value: T): void => {
      if (!declared.has(dep.id)) throw new PluginError(`plugin '${id}' provides '${dep.id}' without declaring it in 'provides'`);
      container.provideRoot(dep, value, `plugin '${id}'`);
      provided.add(dep.id);
    };
    const env: PluginEnvironment = {
      pluginId: id,
      provideService: provide,
      provideExtensionPoint: provide,
      addRoutes: (group) => routes.push(checkedRouteGroup(id, group)),
      addWorker: (worker) => workers.push({ ...worker, name: `${id}/${worker.name}` }),
      addMigrations: (list) => migrations.push(...list),
      addReadinessCheck: (name, check) => readinessChecks.push({ name: `${id}/${name}`, check }),
      addReadinessNote: (name, note) => readinessNotes.push({ name: `${id}/${name}`, note }),
    };
    const deps: Record<string, unknown> = {};
    for (const [key, dep] of Object.entries(definition.deps)) {
      deps[key] = isOptional(dep) && !container.has(dep) ? undefined : container.resolveFor(id, dep);
    }
    try {
      await definition.init(deps as never, env);
    } catch (error) {
      if (error instanceof PluginError) throw error;
      throw new PluginError(`plugin '${id}' failed to initialise: ${(error as Error).message}`, { cause: error });
    }
    for (const dep of declared) {
      if (!provided.has(dep)) throw new PluginError(`plugin '${id}' declares it provides '${dep}' but did not provide it in init`);
    }
    if (migrations.length > 0) {
      const report = await options.migrator.migrate(id, migrations);
      const applied = report.results.filter((r) => r.status === 'applied').map((r) => r.name);
      if (applied.length > 0) logger.info({ plugin: id, applied }, 'migrations applied');
      if (report.error) {
        const failed = report.results.find((r) => r.status === 'failed')?.name;
        throw new PluginError(`plugin '${id}': migration ${failed ?? ''} failed: ${report.error.message}`.replace('  ', ' '), { cause: report.error });
      }
    }
  }
  return { order: ordered.map((p) => p.definition.id), routes, workers, readinessChecks, readinessNotes };
}

const SURFACES: readonly RouteSurface[] = ['tcp', 'runner-socket'];

/** A route group served nowhere, or on a listener the kernel does not have, is a plugin bug. */
function checkedRouteGroup(pluginId: string, group: RouteGroup): RouteGroup {
  const surfaces = group.surfaces;
  if (surfaces === undefined) return group;
  if (surfaces.length === 0) throw new PluginError(`plugin '${pluginId}' adds a route group with no surfaces; omit 'surfaces' to serve it on TCP`);
  const unknown = surfaces.filter((surface) => !SURFACES.includes(surface));
  if (unknown.length > 0) {
    throw new PluginError(`plugin '${pluginId}' adds a route group on unknown surface(s) ${unknown.map((s) => `'${s}'`).join(', ')}; use ${SURFACES.join(' or ')}`);
  }
  return group;
}
