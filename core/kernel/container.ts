import { asFunction, asValue, createContainer, type AwilixContainer } from 'awilix';
import { PluginError } from './errors.js';
import type { Dependency, ServiceRef } from './service-ref.js';

/**
 * The DI container, kept inside the kernel: plugins get plain values by ref and never see it.
 * Root services are single values; plugin-scoped services are built once per plugin from a
 * factory that receives the plugin id.
 */
export class ServiceContainer {
  private readonly root: AwilixContainer = createContainer({ strict: true });
  private readonly scopes = new Map<string, AwilixContainer>();

  has(dep: Dependency<unknown>): boolean {
    return this.root.hasRegistration(dep.id);
  }

  provideRoot<T>(dep: Dependency<T>, value: T, owner: string): void {
    if (this.root.hasRegistration(dep.id)) {
      throw new PluginError(`'${dep.id}' is provided twice (again by ${owner})`);
    }
    this.root.register(dep.id, asValue(value));
  }

  providePluginScoped<T>(ref: ServiceRef<T>, factory: (pluginId: string) => T): void {
    this.root.register(ref.id, asFunction(({ pluginId }: { pluginId: string }) => factory(pluginId)).scoped());
  }

  /** Resolves a plugin's dependencies in its own scope. */
  resolveFor<T>(pluginId: string, dep: Dependency<T>): T {
    let scope = this.scopes.get(pluginId);
    if (!scope) {
      scope = this.root.createScope();
      scope.register('pluginId', asValue(pluginId));
      this.scopes.set(pluginId, scope);
    }
    return scope.resolve<T>(dep.id);
  }

  async dispose(): Promise<void> {
    this.scopes.clear();
    await this.root.dispose();
  }
}
