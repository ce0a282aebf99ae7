import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { packageInfo } from './package-info.js';
import { PLUGIN_API_VERSION } from './plugin.js';

export interface Versions {
  readonly runnerVersion: string;
  readonly replayCorpusRunnerVersion: string;
  readonly node20Version: string;
  readonly node24Version: string;
  readonly runnerInstallerMinTag: string;
  readonly pluginApiVersion: number;
}

function text(data: Record<string, unknown>, key: string): string {
  const value = data[key];
  if (typeof value !== 'string' || value === '') throw new Error(`versions.toml: '${key}' must be a non-empty string`);
  return value;
}

/** Reads versions.toml at the package root; the plugin API pin must match the kernel's. */
export function readVersions(path = join(packageInfo().root, 'versions.toml')): Versions {
  const data = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const versions: Versions = {
    runnerVersion: text(data, 'runner_version'),
    replayCorpusRunnerVersion: text(data, 'replay_corpus_runner_version'),
    node20Version: text(data, 'node20_version'),
    node24Version: text(data, 'node24_version'),
    runnerInstallerMinTag: text(data, 'runner_installer_min_tag'),
    pluginApiVersion: Number(data.plugin_api_version),
  };
  if (versions.pluginApiVersion !== PLUGIN_API_VERSION) {
    throw new Error(`versions.toml pins plugin_api_version ${String(data.plugin_api_version)} but the kernel implements ${PLUGIN_API_VERSION}`);
  }
  return versions;
}
