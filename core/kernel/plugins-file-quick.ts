import { simpleSchemaAccepts } from './config/simple-schema.js';
import { parsePluginsToml, PluginsFileSchema, readPluginsText, toPluginsFile, type PluginsFile, type PluginsFileData } from './plugins-file-schema.js';

/**
 * plugins.toml as readPluginsFile reads it, for the CLI: a valid file is checked without Ajv
 * (config/simple-schema.ts), and only a file that check does not accept goes through the
 * validating reader, which words the problem (or accepts it: the quick check may be stricter,
 * never looser).
 */
export async function readPluginsFileQuick(path: string): Promise<PluginsFile> {
  const text = readPluginsText(path);
  const data = parsePluginsToml(path, text);
  if (simpleSchemaAccepts(PluginsFileSchema, data)) return toPluginsFile(path, data as PluginsFileData);
  const { parsePluginsFile } = await import('./plugins-file.js');
  return parsePluginsFile(path, text);
}
