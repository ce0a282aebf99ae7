import type { FastifyInstance } from 'fastify';
import type { Migration } from '../ports/index.js';
import type { CommandDefinition } from './command.js';
import type { Dependency, ExtensionPoint, OptionalDependency, ServiceRef } from './service-ref.js';

/** The plugin API this kernel implements. A plugin targeting another version is refused. */
export const PLUGIN_API_VERSION = 1;

/** Who may call a route group; the kernel installs the matching hook in its encapsulated context. */
export type RouteAuth =
  /** No credential (readiness, signed URLs, webhook intake that verifies its own signature). */
  | 'public'
  /** The native system bearer (`SVC_SYSTEM_TOKEN`), `Bearer` or `token` scheme. */
  | 'system';

/**
 * A listener the kernel serves route groups on: `tcp` is `SVC_LISTEN`; `runner-socket` is the
 * Unix socket at `SVC_RUNNER_SOCKET` (mode 0600), which carries only what runners call.
 */
export type RouteSurface = 'tcp' | 'runner-socket';

/** The surfaces of a route group runners call (registration, `_apis`, broker, blob downloads, ...). */
export const RUNNER_SURFACES: readonly RouteSurface[] = ['tcp', 'runner-socket'];

export interface RouteGroup {
  /** URL prefix, e.g. `/api/v1`. */
  readonly prefix?: string;
  readonly auth: RouteAuth;
  /** Where the group is served; default `['tcp']`. Runner routes use `RUNNER_SURFACES`. */
  readonly surfaces?: readonly RouteSurface[];
  /**
   * What the group serves, in a phrase, when it has routes under `/api/v3` (GitHub's REST
   * prefix): a request there that matches no route gets GitHub's 404 body naming every group's
   * phrase (a group without one is named by its routes). Ignored for other groups.
   */
  readonly serves?: string;
  /**
   * Registers routes on an encapsulated Fastify context (its hooks stay inside it). Called once
   * per surface the group is served on, each time on another server: register routes and hooks
   * only, and build shared state in `init`.
   */
  register(app: FastifyInstance): void | Promise<void>;
}

/** A background loop started after every plugin is initialised and stopped before the store closes. */
export interface Worker {
  readonly name: string;
  start(): void | Promise<void>;
  /** Finish in-flight work and return. A second signal abandons waiting for it. */
  stop(): void | Promise<void>;
}

/** A readiness probe that /readyz runs; throw with a reason when not ready. */
export type ReadinessCheck = () => Promise<void>;

/**
 * Something an operator should know that does not make the server unready (e.g. the built-in
 * pool fell back to a weaker backend): /readyz shows it under `notes`; undefined shows nothing.
 */
export type ReadinessNote = () => string | undefined;

/** What `init` can register. Everything registered here is owned by the plugin. */
export interface PluginEnvironment {
  readonly pluginId: string;
  /** Provides a service this plugin declared in `provides`. */
  provideService<T>(ref: ServiceRef<T>, value: T): void;
  /** Provides an extension point this plugin declared in `provides`; others depend on it to contribute. */
  provideExtensionPoint<T>(ref: ExtensionPoint<T>, value: T): void;
  addRoutes(group: RouteGroup): void;
  addWorker(worker: Worker): void;
  /** Append-only migrations of the tables this plugin owns; run right after its init. */
  addMigrations(migrations: readonly Migration[]): void;
  addReadinessCheck(name: string, check: ReadinessCheck): void;
  addReadinessNote(name: string, note: ReadinessNote): void;
}

export type DependencyMap = Readonly<Record<string, Dependency<unknown>>>;

export type ResolvedDependencies<D extends DependencyMap> = {
  readonly [K in keyof D]: D[K] extends OptionalDependency<infer T> ? T | undefined : D[K] extends Dependency<infer T> ? T : never;
};

export interface PluginDefinition<D extends DependencyMap = DependencyMap> {
  /** Stable id, lower-case with dashes (`runner-protocol`); also names its log child and migrations. */
  readonly id: string;
  /** Must equal PLUGIN_API_VERSION. */
  readonly apiVersion: number;
  readonly deps: D;
  /** Services and extension points this plugin provides in `init`. */
  readonly provides?: readonly Dependency<unknown>[];
  /** CLI subcommands (run in the CLI process; see command.ts). */
  readonly commands?: readonly CommandDefinition[];
  init(deps: ResolvedDependencies<D>, env: PluginEnvironment): void | Promise<void>;
}

/** Identity function that gives a plugin definition its types. */
export function definePlugin<D extends DependencyMap>(definition: PluginDefinition<D>): PluginDefinition<D> {
  return definition;
}
