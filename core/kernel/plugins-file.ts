import { formatSchemaErrors } from './config/schema-errors.js';
import { compileSchema } from './config/validator.js';
import { ConfigError } from './errors.js';
import { parsePluginsToml, PluginsFileSchema, readPluginsText, toPluginsFile, type PluginsFile, type PluginsFileData } from './plugins-file-schema.js';

export type { PluginSource, PluginsFile } from './plugins-file-schema.js';

const validator = compileSchema<PluginsFileData>(PluginsFileSchema);

/** Reads plugins.toml (plugins-file-schema.ts) with its schema: every problem named, in one message. */
export function parsePluginsFile(path: string, text: string): PluginsFile {
  const data = parsePluginsToml(path, text);
  const validate = validator();
  if (!validate(data)) {
    const problems = formatSchemaErrors(validate.errors ?? [], data).map((p) =>
      p.startsWith('plugin[') ? `${p} (each [[plugin]] has exactly one of id, package or path)` : p,
    );
    throw new ConfigError(`${path}: ${problems.join('; ')}`);
  }
  return toPluginsFile(path, data);
}

export function readPluginsFile(path: string): PluginsFile {
  return parsePluginsFile(path, readPluginsText(path));
}
