import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { parse, TomlError } from 'smol-toml';
import { formatSchemaErrors } from './config/schema-errors.js';
import { ConfigError } from './errors.js';

/**
 * plugins.toml: which backends the host uses and which plugins it loads, in order.
 * Built-in plugins are named by `id`, third-party ones by npm `package` name or a local `path`.
 */
const PluginEntry = Type.Union([
  Type.Object({ id: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }) }, { additionalProperties: false }),
  Type.Object({ package: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ path: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
]);

const PluginsFileSchema = Type.Object(
  {
    backends: Type.Optional(
      Type.Object(
        {
          store: Type.Optional(Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')])),
          notifier: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('in-process'), Type.Literal('postgres'), Type.Literal('redis')])),
          blobs: Type.Optional(Type.Literal('filesystem')),
        },
        { additionalProperties: false },
      ),
    ),
    plugin: Type.Optional(Type.Array(PluginEntry)),
  },
  { additionalProperties: false },
);

type PluginsFileData = Static<typeof PluginsFileSchema>;

export type PluginSource =
  | { readonly kind: 'builtin'; readonly id: string }
  | { readonly kind: 'package'; readonly name: string }
  | { readonly kind: 'path'; readonly path: string };

export interface PluginsFile {
  readonly path: string;
  readonly backends: {
    readonly store: 'sqlite' | 'postgres';
    readonly notifier: 'auto' | 'in-process' | 'postgres' | 'redis';
    readonly blobs: 'filesystem';
  };
  readonly plugins: readonly PluginSource[];
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validate = ajv.compile<PluginsFileData>(PluginsFileSchema);

export function parsePluginsFile(path: string, text: string): PluginsFile {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ConfigError(`${path}:${error.line}:${error.column}: invalid TOML: ${error.message.split('\n')[0]}`, { cause: error });
    }
    throw error;
  }
  if (!validate(data)) {
    const problems = formatSchemaErrors(validate.errors ?? [], data).map((p) =>
      p.startsWith('plugin[') ? `${p} (each [[plugin]] has exactly one of id, package or path)` : p,
    );
    throw new ConfigError(`${path}: ${problems.join('; ')}`);
  }
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
      blobs: data.backends?.blobs ?? 'filesystem',
    },
    plugins,
  };
}

export function readPluginsFile(path: string): PluginsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read plugins file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parsePluginsFile(path, text);
}
