import { join } from 'node:path';
import { installNodeRelease, installedNodeRelease, NodeDistError } from '../../core/node-dist/index.js';
import { RunnerConfigError, type RunnerRoot } from './runner-root.js';

/** A JavaScript runtime of `externals/` (node20, node24 actions). */
export interface NodeRuntime {
  /** Folder under `externals/`, e.g. `node20`. */
  readonly name: string;
  /** Exact release, from versions.toml. */
  readonly version: string;
}

export interface ExternalsOptions {
  /** A mirror of nodejs.org/dist (URL or directory): `v<version>/node-v<version>-<platform>-<arch>.tar.gz` and `SHASUMS256.txt`. */
  readonly dist: string;
  readonly platform?: string;
  readonly arch?: string;
  /** Progress lines for the terminal. */
  readonly report?: (line: string) => void;
}

/** The folder of a runtime (`externals/node20`, its `bin/node` inside). */
export function nodeRuntimeDir(root: RunnerRoot, runtime: NodeRuntime): string {
  return join(root.externalsDir, runtime.name);
}

export function installedNodeVersion(root: RunnerRoot, runtime: NodeRuntime): Promise<string | undefined> {
  return installedNodeRelease(nodeRuntimeDir(root, runtime));
}

/**
 * Puts each runtime into `externals/<name>/` (core/node-dist: checked against the release's
 * `SHASUMS256.txt`, never seen half-unpacked). A runtime already present at the pinned version
 * is kept. A failure says how to do without: `--no-externals` and the node on PATH.
 */
export async function installNodeRuntimes(root: RunnerRoot, runtimes: readonly NodeRuntime[], options: ExternalsOptions): Promise<void> {
  for (const runtime of runtimes) {
    try {
      await installNodeRelease(nodeRuntimeDir(root, runtime), runtime.version, options);
    } catch (error) {
      if (!(error instanceof NodeDistError)) throw error;
      throw new RunnerConfigError(`${error.message}, or configure with --no-externals to use the node on PATH`, { cause: error });
    }
  }
}
