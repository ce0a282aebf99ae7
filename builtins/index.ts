/**
 * The built-ins catalog: what ships in the box, handed to the kernel by the composition roots
 * (`svc` and `svc serve` in cli/, and the tests, benchmarks and conformance suites that build
 * hosts). The kernel only defines the catalog's shape (`Catalog`); it names no plugin or backend.
 * Only lazy imports and CLI faces here, so importing this loads no plugin's server side.
 */
import type { Catalog, CommandDefinition, ModuleImporter } from '../core/kernel/cli/index.js';
import { blobBackends, credentialBackends, notifierBackends, remoteRepositoriesBackend, snapshotBackends, storeBackends } from './backends.js';
import { builtinPlugins } from './plugins.js';

export { blobBackends, credentialBackends, notifierBackends, remoteRepositoriesBackend, snapshotBackends, storeBackends } from './backends.js';
export { builtinPlugins, type BuiltinPlugin } from './plugins.js';

/** The built-in plugins' CLI faces, by plugin id; a plugin without commands has no entry. */
export const builtinPluginCommands: Readonly<Record<string, () => Promise<readonly CommandDefinition[]>>> = Object.fromEntries(
  Object.entries(builtinPlugins).flatMap(([id, entry]) => (entry.commands === undefined ? [] : [[id, entry.commands]])),
);

export const defaultCatalog: Catalog = {
  plugins: Object.fromEntries(Object.entries(builtinPlugins).map(([id, entry]): [string, ModuleImporter] => [id, entry.server])),
  pluginCommands: builtinPluginCommands,
  stores: storeBackends,
  notifiers: notifierBackends,
  blobs: blobBackends,
  credentials: credentialBackends,
  snapshots: snapshotBackends,
  remoteRepositories: remoteRepositoriesBackend,
};
