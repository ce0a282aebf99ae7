import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './errors.js';

/**
 * plugins.toml: which backends the host uses and which plugins it loads, in order.
 * Built-in plugins are named by `id`, third-party ones by npm `package` name or a local `path`.
 * The schema and the reading without a validator, shared by the validating reader
 * (plugins-file.ts) and the CLI's quick one (plugins-file-quick.ts).
 */
const entry = (key: string, schema: object) => ({ type: 'object', properties: { [key]: schema }, required: [key], additionalProperties: false });
const choice = (...values: string[]) => ({ type: 'string', enum: values });

export const PluginsFileSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    backends: {
      type: 'object',
      additionalProperties: false,
      properties: {
        store: choice('sqlite', 'postgres'),
        notifier: choice('auto', 'in-process', 'postgres', 'redis'),
        blobs: choice('auto', 'filesystem', 'postgres'),
        snapshots: choice('git'),
      },
    },
    plugin: {
      type: 'array',
      items: {
        anyOf: [
          entry('id', { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }),
          entry('package', { type: 'string', minLength: 1 }),
          entry('path', { type: 'string', minLength: 1 }),
        ],
      },
    },
  },
} as const;

export interface PluginsFileData {
  readonly backends?: {
    readonly store?: 'sqlite' | 'postgres';
    readonly notifier?: 'auto' | 'in-process' | 'postgres' | 'redis';
    readonly blobs?: 'auto' | 'filesystem' | 'postgres';
    readonly snapshots?: 'git';
  };
  readonly plugin?: readonly ({ readonly id: string } | { readonly package: string } | { readonly path: string })[];
}

export type PluginSource =
  | { readonly kind: 'builtin'; readonly id: string }
  | { readonly kind: 'package'; readonly name: string }
  | { readonly kind: 'path'; readonly path: string };

export interface PluginsFile {
  readonly path: string;
  readonly backends: {
    readonly store: 'sqlite' | 'postgres';
    readonly notifier: 'auto' | 'in-process' | 'postgres' | 'redis';
    readonly blobs: 'auto' | 'filesystem' | 'postgres';
    readonly snapshots: 'git';
  };
  readonly plugins: readonly PluginSource[];
}

/** The file's TOML as data (not yet validated); a syntax error names the file, line and column. */
export function parsePluginsToml(path: string, text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ConfigError(`${path}:${error.line}:${error.column}: invalid TOML: ${error.message.split('\n')[0]}`, { cause: error });
    }
    throw error;
  }
}

/** Validated data as the host reads it: defaults filled in, paths resolved against the file's directory. */
export function toPluginsFile(path: string, data: PluginsFileData): PluginsFile {
  const base = dirname(path);
  const plugins = (data.plugin ?? []).map((entry): PluginSource => {
    if ('id' in entry) return { kind: 'builtin', id: entry.id };
    if ('package' in entry) return { kind: 'package', name: entry.package };
    return { kind: 'path', path: resolve(base, entry.path) };
  });
  return {
    path,
    backends: {
      store: data.backends?.store ?? 'sqlite',
      notifier: data.backends?.notifier ?? 'auto',
      blobs: data.backends?.blobs ?? 'auto',
      snapshots: data.backends?.snapshots ?? 'git',
    },
    plugins,
  };
}

export function readPluginsText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read plugins file ${path}: ${(error as Error).message}`, { cause: error });
  }
}
