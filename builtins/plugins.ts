import type { CommandDefinition, ModuleImporter } from '../core/kernel/cli/index.js';

/** One built-in plugin: its module for `svc serve`, and its CLI face for `svc`. */
export interface BuiltinPlugin {
  /** `plugins/<id>/index.ts`, whose `plugin` export the host loads; imported by the server only. */
  readonly server: ModuleImporter;
  /**
   * The plugin's `svc` subcommands from its CLI face (`plugins/<id>/cli/index.ts`, the list its
   * definition's `commands` holds too), so `svc` lists and runs them without loading the plugin's
   * server side. Absent: the plugin has no commands.
   */
  readonly commands?: () => Promise<readonly CommandDefinition[]>;
}

/**
 * The plugins that ship in the box, by the id plugins.toml names them with: one entry per plugin,
 * every import lazy, so a plugin that plugins.toml does not name is never loaded.
 */
export const builtinPlugins: Readonly<Record<string, BuiltinPlugin>> = {
  'management-api': { server: () => import('../plugins/management-api/index.js') },
  blobs: { server: () => import('../plugins/blobs/index.js') },
  engine: {
    server: () => import('../plugins/engine/index.js'),
    commands: async () => (await import('../plugins/engine/cli/index.js')).engineCommands,
  },
  'local-runs': {
    server: () => import('../plugins/local-runs/index.js'),
    commands: async () => (await import('../plugins/local-runs/cli/index.js')).localRunsCommands,
  },
  'runner-protocol': { server: () => import('../plugins/runner-protocol/index.js') },
  'runtime-services': {
    server: () => import('../plugins/runtime-services/index.js'),
    commands: async () => (await import('../plugins/runtime-services/cli/index.js')).runtimeServicesCommands,
  },
  'vm-pool': { server: () => import('../plugins/vm-pool/index.js') },
  'checkout-relay': { server: () => import('../plugins/checkout-relay/index.js') },
  secrets: {
    server: () => import('../plugins/secrets/index.js'),
    commands: async () => (await import('../plugins/secrets/cli/index.js')).secretsCommands,
  },
  forge: { server: () => import('../plugins/forge/index.js') },
};
