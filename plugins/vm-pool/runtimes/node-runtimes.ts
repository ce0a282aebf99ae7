import { join } from 'node:path';
import { DEFAULT_NODE_DIST, installNodeRelease } from '../../../core/node-dist/index.js';
import type { Logger } from '../../../core/kernel/index.js';

/** The runtimes of `externals/` svc-runner runs JavaScript actions with (runner/handlers/node-runtime.ts). */
export type RuntimeName = 'node20' | 'node24';

/**
 * Where a guest's `externals/<name>` comes from: a release provisioned into the data dir, the
 * Node.js that runs svc (for its own major), or nothing yet (`provisioning`) or at all (`missing`).
 */
export type RuntimeState =
  | { readonly name: RuntimeName; readonly version: string; readonly state: 'ready'; readonly source: 'provisioned'; readonly dir: string }
  | { readonly name: RuntimeName; readonly version: string; readonly state: 'ready'; readonly source: 'server'; readonly node: string }
  | { readonly name: RuntimeName; readonly version: string; readonly state: 'provisioning' }
  | { readonly name: RuntimeName; readonly version: string; readonly state: 'missing'; readonly reason: string };

export interface NodeRuntimesOptions {
  /** `<data dir>/runtimes`: one folder per runtime (`node24/`, `bin/node` inside). */
  readonly dir: string;
  /** The pinned releases (versions.toml `node20_version`, `node24_version`). */
  readonly versions: Readonly<Record<RuntimeName, string>>;
  /** SVC_RUNNER_NODE_DIST, or nodejs.org/dist. */
  readonly dist: string | undefined;
  readonly logger: Logger;
  /** The Node.js running svc and its version (tests replace them). */
  readonly serverNode?: { readonly path: string; readonly version: string };
  readonly platform?: string;
  readonly arch?: string;
}

export interface NodeRuntimes {
  /** Provisions what is missing (once; later calls wait for the same work). Never rejects. */
  provision(signal: AbortSignal): Promise<void>;
  list(): readonly RuntimeState[];
}

const NAMES: readonly RuntimeName[] = ['node20', 'node24'];

/**
 * Both runtimes for every guest, whatever Node.js runs svc: the major svc runs on is svc's own
 * node; any other is provisioned once into the data dir from SVC_RUNNER_NODE_DIST (checked
 * against the release's SHASUMS256.txt). One that cannot be had is `missing` with the reason, which
 * the pool shows in its status and hands to guests, whose node24 (or node20) steps then fail saying it.
 */
export function createNodeRuntimes(options: NodeRuntimesOptions): NodeRuntimes {
  const server = options.serverNode ?? { path: process.execPath, version: process.versions.node };
  const serverMajor = server.version.replace(/^v/, '').split('.')[0];
  const dist = options.dist ?? DEFAULT_NODE_DIST;
  const states = new Map<RuntimeName, RuntimeState>();
  for (const name of NAMES) {
    const version = options.versions[name];
    states.set(name, name === `node${serverMajor}` ? { name, version: server.version.replace(/^v/, ''), state: 'ready', source: 'server', node: server.path } : { name, version, state: 'provisioning' });
  }
  let work: Promise<void> | undefined;

  async function provisionOne(name: RuntimeName, version: string, signal: AbortSignal): Promise<void> {
    const dir = join(options.dir, name);
    const started = Date.now();
    try {
      const outcome = await installNodeRelease(dir, version, {
        dist,
        signal,
        ...(options.platform === undefined ? {} : { platform: options.platform }),
        ...(options.arch === undefined ? {} : { arch: options.arch }),
      });
      states.set(name, { name, version, state: 'ready', source: 'provisioned', dir });
      if (outcome === 'installed') options.logger.info({ runtime: name, version, dir, ms: Date.now() - started }, `built-in pool: node ${version} provisioned for guests (${name} actions)`);
    } catch (error) {
      if (signal.aborted) return;
      const reason = `the built-in pool has no node ${version} (svc serve could not provision it at start): ${(error as Error).message}, and restart svc serve`;
      states.set(name, { name, version, state: 'missing', reason });
      options.logger.warn({ runtime: name, version, source: dist, err: error }, `built-in pool: ${name} actions will fail: ${reason}`);
    }
  }

  return {
    provision(signal) {
      work ??= Promise.all(
        [...states.values()].filter((state) => state.state === 'provisioning').map((state) => provisionOne(state.name, state.version, signal)),
      ).then(() => undefined);
      return work;
    },
    list: () => NAMES.map((name) => states.get(name)).filter((state): state is RuntimeState => state !== undefined),
  };
}
