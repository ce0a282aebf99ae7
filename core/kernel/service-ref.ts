/**
 * Typed handles for services and extension points. A plugin names what it needs by ref and
 * receives plain values; it never sees the container.
 */
export type ServiceScope = 'root' | 'plugin';

export interface ServiceRef<T> {
  readonly kind: 'service';
  readonly id: string;
  /** `plugin`-scoped services get one instance per plugin (e.g. its child logger). */
  readonly scope: ServiceScope;
  /** Phantom field carrying the type; never set at run time. */
  readonly __type?: () => T;
}

export interface ExtensionPoint<T> {
  readonly kind: 'extension-point';
  readonly id: string;
  readonly __type?: () => T;
}

export type Dependency<T> = ServiceRef<T> | ExtensionPoint<T>;

/**
 * A dependency the plugin can do without: resolved to `undefined` when no enabled plugin provides
 * it, and otherwise initialised first like any dependency (e.g. runner-protocol reads secrets
 * through the secrets plugin when that plugin is enabled).
 */
export type OptionalDependency<T> = Dependency<T> & { readonly optional: true };

export function optional<T>(dep: Dependency<T>): OptionalDependency<T> {
  return { ...dep, optional: true };
}

export function isOptional(dep: Dependency<unknown>): boolean {
  return (dep as { optional?: unknown }).optional === true;
}

const REF_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-zA-Z0-9-]*)+$/;

function checkId(id: string): string {
  if (!REF_ID.test(id)) {
    throw new TypeError(`invalid ref id '${id}': use '<owner>.<name>' in lower case, e.g. 'core.database'`);
  }
  return id;
}

export function createServiceRef<T>(options: { id: string; scope?: ServiceScope }): ServiceRef<T> {
  return { kind: 'service', id: checkId(options.id), scope: options.scope ?? 'root' };
}

export function createExtensionPoint<T>(options: { id: string }): ExtensionPoint<T> {
  return { kind: 'extension-point', id: checkId(options.id) };
}

export function isDependency(value: unknown): value is Dependency<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { kind?: unknown; id?: unknown };
  return (v.kind === 'service' || v.kind === 'extension-point') && typeof v.id === 'string';
}
